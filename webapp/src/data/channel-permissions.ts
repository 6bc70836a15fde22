// A channel's permissions as the channel settings offer them (upstream's stream_edit and
// stream_permission settings): its privacy, and who may post, subscribe or unsubscribe anyone,
// or administer it, each chosen among the organization's role groups. The server decides; these
// only choose what the page shows and what it sends to PATCH /streams/{id}.
import type { GroupSetting, Stream, UserGroup } from '../api/types';
import { inGroupSetting } from './compose-data';

/** Upstream's three privacy choices (web-public is not offered here). */
export const PRIVACY_CHOICES = [
  {
    value: 'public',
    label: 'Public',
    help: 'Members can join (guests must be invited by a subscriber); anyone can view complete message history without joining',
  },
  {
    value: 'private-shared',
    label: 'Private, shared history',
    help: 'Must be invited by a subscriber; new subscribers can view complete message history; hidden from non-administrator users',
  },
  {
    value: 'private-protected',
    label: 'Private, protected history',
    help: 'Must be invited by a subscriber; new subscribers can only see messages sent after they join; hidden from non-administrator users',
  },
] as const;

export type Privacy = (typeof PRIVACY_CHOICES)[number]['value'];

export const privacyOf = (stream: Stream): Privacy => {
  if (!stream.invite_only) return 'public';
  return stream.history_public_to_subscribers === false ? 'private-protected' : 'private-shared';
};

export const privacyParams = (privacy: Privacy): { is_private: boolean; history_public_to_subscribers: boolean } => ({
  is_private: privacy !== 'public',
  history_public_to_subscribers: privacy !== 'private-protected',
});

export type ChannelGroupSettingName =
  'can_send_message_group' | 'can_add_subscribers_group' | 'can_remove_subscribers_group' | 'can_administer_channel_group';

/** The settings offered, with upstream's labels; allowsEveryone as the server (guests may not hold some). */
export const CHANNEL_PERMISSION_SETTINGS: readonly { name: ChannelGroupSettingName; label: string; allowsEveryone: boolean }[] = [
  { name: 'can_send_message_group', label: 'Who can post to this channel', allowsEveryone: true },
  { name: 'can_add_subscribers_group', label: 'Who can subscribe anyone to this channel', allowsEveryone: false },
  { name: 'can_remove_subscribers_group', label: 'Who can unsubscribe anyone from this channel', allowsEveryone: true },
  { name: 'can_administer_channel_group', label: 'Who can administer this channel', allowsEveryone: false },
];

/** The role groups a setting may be, in upstream's order, with the names upstream's web app shows. */
const ROLE_GROUPS: readonly NamedGroup[] = [
  { group: 'role:everyone', label: 'Everyone including guests' },
  { group: 'role:members', label: 'Everyone except guests' },
  { group: 'role:fullmembers', label: 'Full members' },
  { group: 'role:moderators', label: 'Moderators' },
  { group: 'role:administrators', label: 'Administrators' },
  { group: 'role:owners', label: 'Owners' },
  { group: 'role:nobody', label: 'Nobody' },
];

export type GroupChoice = { id: number; label: string };
type NamedGroup = { group: string; label: string };

/** The system groups named, as this organization has them (their ids), with their labels. */
export const systemGroupChoices = (groups: readonly UserGroup[], named: readonly NamedGroup[]): GroupChoice[] =>
  named.flatMap((n) => {
    const group = groups.find((g) => g.is_system_group && g.name === n.group);
    return group ? [{ id: group.id, label: n.label }] : [];
  });

/** The role groups this organization has, for one setting. */
export const roleGroupChoices = (groups: readonly UserGroup[], allowsEveryone: boolean): GroupChoice[] =>
  systemGroupChoices(
    groups,
    ROLE_GROUPS.filter((r) => allowsEveryone || r.group !== 'role:everyone'),
  );

/** The role group a setting is, or undefined when it is another group or a set of people (kept as it is). */
export const chosenGroup = (setting: GroupSetting | undefined, choices: readonly GroupChoice[]): number | undefined => {
  if (setting === undefined) return undefined;
  if (typeof setting === 'number') return choices.some((c) => c.id === setting) ? setting : undefined;
  const { direct_members: members, direct_subgroups: subgroups } = setting;
  return members.length === 0 && subgroups.length === 1 && choices.some((c) => c.id === subgroups[0]) ? subgroups[0] : undefined;
};

/** Whether I may change a channel's settings: an organization administrator, or in its can_administer_channel_group. */
export const canAdministerChannel = (stream: Stream, groups: readonly UserGroup[], userId: number, orgAdmin: boolean): boolean =>
  orgAdmin || inGroupSetting(stream.can_administer_channel_group, groups, userId);
