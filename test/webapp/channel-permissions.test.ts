// A channel's permissions as the channel settings offer them: the privacy choices and what they
// send, the role groups each setting may be, who may change them, and the stream update events
// (the privacy one with its history setting) that keep them current.
import type { ServerEvent, UserGroup } from '../../webapp/src/api/types';
import { applyEvent } from '../../webapp/src/data/dispatch';
import { canAdministerChannel, chosenGroup, privacyOf, privacyParams, roleGroupChoices } from '../../webapp/src/data/channel-permissions';
import { DENMARK, HAMLET, ME, OTHELLO, state } from './fixtures';

const [EVERYONE, MEMBERS, ADMINS, NOBODY, TEAM] = [1, 2, 3, 4, 9];
const GROUPS: UserGroup[] = [
  { id: ADMINS, name: 'role:administrators', members: [ME], is_system_group: true },
  { id: MEMBERS, name: 'role:members', members: [HAMLET], direct_subgroup_ids: [ADMINS], is_system_group: true },
  { id: EVERYONE, name: 'role:everyone', members: [], direct_subgroup_ids: [MEMBERS], is_system_group: true },
  { id: NOBODY, name: 'role:nobody', members: [], is_system_group: true },
  { id: TEAM, name: 'Team', members: [OTHELLO], is_system_group: false },
];

const update = (property: string, value: unknown, extra: Record<string, unknown> = {}) =>
  ({ id: 1, type: 'stream', op: 'update', stream_id: DENMARK, property, value, ...extra }) as ServerEvent;

describe('webapp channel permissions', () => {
  it('reads and sends the three privacy choices', () => {
    const base = { stream_id: 1, name: 'x', description: '' };
    expect(privacyOf({ ...base, invite_only: false })).toBe('public');
    expect(privacyOf({ ...base, invite_only: true, history_public_to_subscribers: true })).toBe('private-shared');
    expect(privacyOf({ ...base, invite_only: true, history_public_to_subscribers: false })).toBe('private-protected');
    expect(privacyParams('public')).toEqual({ is_private: false, history_public_to_subscribers: true });
    expect(privacyParams('private-shared')).toEqual({ is_private: true, history_public_to_subscribers: true });
    expect(privacyParams('private-protected')).toEqual({ is_private: true, history_public_to_subscribers: false });
  });

  it('offers the organization’s role groups in upstream’s order, without everyone where guests may not hold it', () => {
    expect(roleGroupChoices(GROUPS, true).map((c) => c.label)).toEqual([
      'Everyone including guests',
      'Everyone except guests',
      'Administrators',
      'Nobody',
    ]);
    expect(roleGroupChoices(GROUPS, false).map((c) => c.id)).toEqual([MEMBERS, ADMINS, NOBODY]);
  });

  it('shows a setting as its role group, and as none of them when it is another group or a set of people', () => {
    const choices = roleGroupChoices(GROUPS, true);
    expect(chosenGroup(ADMINS, choices)).toBe(ADMINS);
    expect(chosenGroup({ direct_members: [], direct_subgroups: [MEMBERS] }, choices)).toBe(MEMBERS);
    expect(chosenGroup(TEAM, choices)).toBeUndefined();
    expect(chosenGroup({ direct_members: [HAMLET], direct_subgroups: [] }, choices)).toBeUndefined();
    expect(chosenGroup(undefined, choices)).toBeUndefined();
  });

  it('lets organization administrators and the channel’s administrators change it', () => {
    const stream = { stream_id: 1, name: 'x', description: '', invite_only: false, can_administer_channel_group: TEAM };
    expect(canAdministerChannel(stream, GROUPS, HAMLET, false)).toBe(false);
    expect(canAdministerChannel(stream, GROUPS, HAMLET, true)).toBe(true);
    expect(canAdministerChannel(stream, GROUPS, OTHELLO, false)).toBe(true);
    const byMembers = { ...stream, can_administer_channel_group: { direct_members: [], direct_subgroups: [MEMBERS] } };
    expect(canAdministerChannel(byMembers, GROUPS, HAMLET, false)).toBe(true);
    expect(canAdministerChannel(byMembers, GROUPS, OTHELLO, false)).toBe(false);
  });

  it('follows the stream update events: a group setting, the folder, and privacy with its history', () => {
    const s = [
      update('can_send_message_group', ADMINS),
      update('folder_id', 7),
      update('invite_only', true, { history_public_to_subscribers: false, is_web_public: false }),
    ].reduce((acc, e) => applyEvent(acc, e, 0), state());
    const denmark = s.channels.streams.get(DENMARK)!;
    expect(denmark).toMatchObject({
      can_send_message_group: ADMINS,
      folder_id: 7,
      invite_only: true,
      history_public_to_subscribers: false,
    });
    expect(privacyOf(denmark)).toBe('private-protected');
    expect(s.channels.subs.get(DENMARK)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
  });
});
