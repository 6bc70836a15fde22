// Who may edit, move and delete a message, and until when: upstream's rules against the
// development organization's groups (Iago 11 administrator, Shiva 15 moderator, Hamlet 10 and
// Cordelia 8 members, Polonius 13 guest, Desdemona 9 owner of the bot 16), with the default
// settings and with the settings an organization may change.
import { checkCanChangeTopic, checkCanDeleteMessage, checkCanEditContent } from '../../../lib/access/message-edit';
import { RealmGroups } from '../../../lib/access/user-groups';
import type { Channel } from '../../../lib/models/channel';
import type { Message } from '../../../lib/models/message';
import type { MessageEditSettings } from '../../../lib/models/message-edit';
import type { Realm } from '../../../lib/models/realm';
import type { User } from '../../../lib/models/user';
import * as channelsStore from '../../../lib/store/channels';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';

let realm: Realm;
let groups: RealmGroups;
let verona: Channel;
const users = new Map<number, User>();
const NOW = 1_800_000_000;

const message = (senderId: number, ageSeconds: number, streamId: number | null = 3): Message => ({
  id: 100,
  realmId: 2,
  senderId,
  streamId,
  topic: streamId === null ? '' : 'test',
  dmUserIds: streamId === null ? [10, senderId].sort((a, b) => a - b) : [],
  content: 'hello',
  dateSent: NOW - ageSeconds,
});
const withSettings = (settings: Partial<MessageEditSettings>, groupSettings: Realm['groupSettings'] = {}): Realm => ({
  ...realm,
  messageEditSettings: settings,
  groupSettings: { ...realm.groupSettings, ...groupSettings },
});
const user = (id: number): User => users.get(id)!;

beforeAll(async () => {
  realm = (await realmsStore.get(2))!;
  groups = await RealmGroups.load(2);
  verona = (await channelsStore.getChannel(2, 3))!;
  for (const id of [8, 9, 10, 11, 13, 15, 16]) users.set(id, (await usersStore.get(2, id))!);
});

describe('checkCanEditContent', () => {
  it('lets the sender edit within the limit plus the 20-second grace', () => {
    expect(() => checkCanEditContent(realm, user(10), message(10, 620), NOW)).not.toThrow();
  });

  it('refuses the sender once the limit and the grace have passed', () => {
    expect(() => checkCanEditContent(realm, user(10), message(10, 621), NOW)).toThrow('The time limit for editing this message has passed');
  });

  it("refuses an administrator editing someone else's content", () => {
    expect(() => checkCanEditContent(realm, user(11), message(10, 1), NOW)).toThrow("You don't have permission to edit this message");
  });

  it('refuses everyone when the organization turned editing off, before looking at the sender', () => {
    const off = withSettings({ allowMessageEditing: false });
    expect(() => checkCanEditContent(off, user(11), message(10, 1), NOW)).toThrow('Your organization has turned off message editing');
  });

  it('has no limit when the organization set none', () => {
    expect(() =>
      checkCanEditContent(withSettings({ messageContentEditLimitSeconds: null }), user(10), message(10, 10 ** 8), NOW),
    ).not.toThrow();
  });
});

describe('checkCanChangeTopic', () => {
  const week = 604800;

  it("lets any member move someone else's message within the channel by default", () => {
    expect(() => checkCanChangeTopic(realm, groups, user(8), verona, message(10, 60), { resolveToggle: false, now: NOW })).not.toThrow();
  });

  it("refuses a non-moderator after the seven-day move limit and the grace, with upstream's final period", () => {
    expect(() => checkCanChangeTopic(realm, groups, user(10), verona, message(10, week + 21), { resolveToggle: false, now: NOW })).toThrow(
      "The time limit for editing this message's topic has passed.",
    );
  });

  it('lets a moderator move a message of any age', () => {
    expect(() =>
      checkCanChangeTopic(realm, groups, user(15), verona, message(10, week * 10), { resolveToggle: false, now: NOW }),
    ).not.toThrow();
  });

  it("refuses a member outside the organization's can_move_messages_between_topics_group", () => {
    const admins = groups.systemGroup('role:administrators').id;
    const strict = withSettings({}, { can_move_messages_between_topics_group: admins });
    expect(() => checkCanChangeTopic(strict, groups, user(10), verona, message(10, 1), { resolveToggle: false, now: NOW })).toThrow(
      "You don't have permission to edit this message",
    );
    expect(() => checkCanChangeTopic(strict, groups, user(11), verona, message(10, 1), { resolveToggle: false, now: NOW })).not.toThrow();
  });

  it("lets a member of the channel's can_move_messages_within_channel_group move where the organization refuses", () => {
    const strict = withSettings({}, { can_move_messages_between_topics_group: groups.systemGroup('role:nobody').id });
    const channel = {
      ...verona,
      groupSettings: { ...verona.groupSettings, can_move_messages_within_channel_group: { direct_members: [10], direct_subgroups: [] } },
    };
    expect(() => checkCanChangeTopic(strict, groups, user(10), channel, message(10, 1), { resolveToggle: false, now: NOW })).not.toThrow();
  });

  it('resolves without a time limit, and refuses outside both can_resolve_topics_group settings', () => {
    expect(() =>
      checkCanChangeTopic(realm, groups, user(10), verona, message(8, week * 10), { resolveToggle: true, now: NOW }),
    ).not.toThrow();
    const strict = withSettings({}, { can_resolve_topics_group: groups.systemGroup('role:nobody').id });
    expect(() => checkCanChangeTopic(strict, groups, user(11), verona, message(8, 1), { resolveToggle: true, now: NOW })).toThrow(
      "You don't have permission to resolve topics in this channel.",
    );
  });
});

describe('checkCanDeleteMessage', () => {
  const dm = { channel: null, sender: undefined, now: NOW };

  it("lets an administrator delete anyone's message at any age", () => {
    expect(() => checkCanDeleteMessage(realm, groups, user(11), message(10, 10 ** 7), { ...dm, channel: verona })).not.toThrow();
  });

  it("refuses a moderator someone else's message by default", () => {
    expect(() => checkCanDeleteMessage(realm, groups, user(15), message(10, 1), { ...dm, channel: verona })).toThrow(
      "You don't have permission to delete this message",
    );
  });

  it('lets the sender delete within the limit, with no grace', () => {
    expect(() => checkCanDeleteMessage(realm, groups, user(10), message(10, 600), dm)).not.toThrow();
    expect(() => checkCanDeleteMessage(realm, groups, user(10), message(10, 601), dm)).toThrow(
      'The time limit for deleting this message has passed',
    );
  });

  it("lets a bot's owner delete the bot's message", () => {
    expect(() => checkCanDeleteMessage(realm, groups, user(9), message(16, 1), { ...dm, channel: verona, sender: user(16) })).not.toThrow();
  });

  it('lets a guest delete their own message, as role:everyone may delete their own', () => {
    expect(() => checkCanDeleteMessage(realm, groups, user(13), message(13, 1), { ...dm, channel: verona })).not.toThrow();
  });

  it("refuses a direct message's sender outside the organization's can_delete_own_message_group", () => {
    const strict = withSettings({}, { can_delete_own_message_group: groups.systemGroup('role:moderators').id });
    expect(() => checkCanDeleteMessage(strict, groups, user(10), message(10, 1, null), dm)).toThrow(
      "You don't have permission to delete this message",
    );
  });

  it("lets a channel message's sender in the channel's can_delete_own_message_group delete where the organization refuses", () => {
    const strict = withSettings({}, { can_delete_own_message_group: groups.systemGroup('role:moderators').id });
    expect(() => checkCanDeleteMessage(strict, groups, user(10), message(10, 1), { ...dm, channel: verona })).not.toThrow();
  });

  it("lets a member of the channel's can_delete_any_message_group delete anyone's message there", () => {
    const channel = {
      ...verona,
      groupSettings: { ...verona.groupSettings, can_delete_any_message_group: { direct_members: [8], direct_subgroups: [] } },
    };
    expect(() => checkCanDeleteMessage(realm, groups, user(8), message(10, 10 ** 7), { ...dm, channel })).not.toThrow();
  });

  it('has no delete limit when the organization set none', () => {
    expect(() =>
      checkCanDeleteMessage(withSettings({ messageContentDeleteLimitSeconds: null }), groups, user(10), message(10, 10 ** 8), dm),
    ).not.toThrow();
  });
});
