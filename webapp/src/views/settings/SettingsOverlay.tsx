// Personal settings (upstream's #settings overlay), loaded on first use: the profile (avatar,
// custom profile fields), account and privacy (password, the API key page), notifications (email
// and push), preferences (theme, 12 or 24 hour time) and muted users. Every change goes to the
// API at once, and what the page shows comes back through the events of that change.
import { OverlayFrame } from '../OverlayFrame';
import { AccountSection, NotificationsSection, PreferencesSection } from './SettingsSections';
import { MutedUsersSection } from './MutedUsers';
import { ProfileSection } from './Profile';

const SECTIONS = [
  { id: 'profile', label: 'Profile', Panel: ProfileSection },
  { id: 'account-and-privacy', label: 'Account & privacy', Panel: AccountSection },
  { id: 'preferences', label: 'Preferences', Panel: PreferencesSection },
  { id: 'notifications', label: 'Notifications', Panel: NotificationsSection },
  { id: 'muted-users', label: 'Muted users', Panel: MutedUsersSection },
];

export const SettingsOverlay = ({ section }: { section: string }) => (
  <OverlayFrame id="settings_page" title="Personal settings" hashPrefix="settings" sections={SECTIONS} section={section} />
);
