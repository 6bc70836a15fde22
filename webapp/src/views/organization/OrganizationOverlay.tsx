// Organization settings (upstream's #organization overlay) and the channel browser (#channels),
// loaded in a chunk of their own the first time one opens. Everyone sees the profile, the
// permissions, the custom emoji, the linkifiers and the users list, read-only unless an
// administrator (or, for emoji, allowed to add them); the deactivated users, invitations, custom
// profile fields and default channels only administrators (upstream shows members its admin-only sections not at all).
// Every change goes to the API, and the page shows what that change's event brings back.
import { isAdminOf } from '../../data/roles';
import { me, people } from '../../store';
import { OverlayFrame, type OverlaySection } from '../OverlayFrame';
import { AllChannelsSection, NewChannelSection, SubscribedChannelsSection } from './Channels';
import { DefaultChannelsSection } from './DefaultChannels';
import { EmojiSection } from './Emoji';
import { InvitationsSection } from './Invitations';
import { LinkifiersSection } from './Linkifiers';
import { OrganizationPermissionsSection, OrganizationProfileSection } from './OrganizationProfile';
import { ProfileFieldsSection } from './ProfileFields';
import { DeactivatedUsersSection, UsersSection } from './Users';

const SECTIONS: readonly (OverlaySection & { adminOnly?: boolean })[] = [
  { id: 'organization-profile', label: 'Organization profile', Panel: OrganizationProfileSection },
  { id: 'organization-permissions', label: 'Organization permissions', Panel: OrganizationPermissionsSection },
  { id: 'emoji-settings', label: 'Custom emoji', Panel: EmojiSection },
  { id: 'linkifier-settings', label: 'Linkifiers', Panel: LinkifiersSection },
  { id: 'users', label: 'Users', Panel: UsersSection },
  { id: 'deactivated', label: 'Deactivated users', Panel: DeactivatedUsersSection, adminOnly: true },
  { id: 'invites', label: 'Invitations', Panel: InvitationsSection, adminOnly: true },
  { id: 'profile-field-settings', label: 'Custom profile fields', Panel: ProfileFieldsSection, adminOnly: true },
  { id: 'default-channels-list', label: 'Default channels', Panel: DefaultChannelsSection, adminOnly: true },
];

export const OrganizationOverlay = ({ section }: { section: string }) => {
  const admin = isAdminOf(people.value, me.value.userId);
  const sections = SECTIONS.filter((s) => admin || !s.adminOnly);
  return (
    <OverlayFrame id="organization_page" title="Organization settings" hashPrefix="organization" sections={sections} section={section} />
  );
};

const CHANNEL_SECTIONS: readonly OverlaySection[] = [
  { id: 'subscribed', label: 'Subscribed', Panel: SubscribedChannelsSection },
  { id: 'all', label: 'All channels', Panel: AllChannelsSection },
  { id: 'new', label: 'Create a channel', Panel: NewChannelSection },
];

export const ChannelsOverlay = ({ section }: { section: string }) => (
  <OverlayFrame id="subscription_overlay" title="Channels" hashPrefix="channels" sections={CHANNEL_SECTIONS} section={section} />
);
