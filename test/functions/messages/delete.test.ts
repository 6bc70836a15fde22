// DELETE /messages/{message_id} against the development data: Denmark (1) has subscribers 7, 9,
// 10, 11, 12, 14, 15 (not Cordelia 8); core team (6) is private with protected history (9, 10,
// 11); Old Verona (7) is archived; Iago (11) is an administrator, Shiva (15) a moderator; message
// 15 is Lear's (another organization). Upstream: zerver/tests/test_message_delete.py.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { handler as register } from '../../../functions/events/register';
import { handler as flagsHandler } from '../../../functions/messages/update-flags';
import { doDeleteMessage } from '../../../lib/actions/messages/delete';
import { advanceClock } from '../../../lib/clock';
import * as channelsStore from '../../../lib/store/channels';
import * as editsStore from '../../../lib/store/message-edits';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import * as messagesStore from '../../../lib/store/messages';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { setSubscribed } from '../../helpers/channels';
import { storeMessage } from '../../helpers/stored-messages';
import { deleteMessage as del } from '../../helpers/messages';

const DENMARK = [7, 9, 10, 11, 12, 14, 15];

const openQueues = (ids: number[], bulk = true) => openQueuesOf(ids, { capabilities: { bulk_message_deletion: bulk } });

/** Nothing of the message changed: the item and every row are still there. */
const expectStored = async (messageId: number, rowUserIds: number[]) => {
  expect(await messagesStore.getMessage(2, messageId)).toBeDefined();
  expect((await editsStore.listRowsOfMessage(messageId, rowUserIds)).map((r) => r.userId)).toEqual([...rowUserIds].sort((a, b) => a - b));
};

const registerState = async (email: string) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as: email,
      params: {
        fetch_event_types: ['message', 'update_message_flags', 'recent_private_conversations'],
        client_capabilities: { empty_topic_name: true },
      },
    }),
  );

describe('DELETE /messages/{message_id}', () => {
  it("deletes the sender's recent channel message, with its rows, and tells the channel's subscribers", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'Plans' });
    const queues = await openQueues([...DENMARK, 8]);
    expect(expectSuccess(await del('hamlet@zulip.com', m.id))).toEqual({ result: 'success', msg: '' });
    expect(await messagesStore.getMessage(2, m.id)).toBeUndefined();
    expect(await editsStore.listRowsOfMessage(m.id, DENMARK)).toEqual([]);
    const event = { type: 'delete_message', message_ids: [m.id], message_type: 'stream', stream_id: 1, topic: 'plans' };
    expect(await drainQueues(queues)).toEqual({ ...Object.fromEntries(DENMARK.map((id) => [id, [event]])), 8: [] });
  });

  it('gives queues without bulk_message_deletion the single message_id', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    const queues = await openQueues([12], false);
    expectSuccess(await del('hamlet@zulip.com', m.id));
    expect(await drainQueues(queues)).toEqual({
      12: [{ type: 'delete_message', message_id: m.id, message_type: 'stream', stream_id: 1, topic: 'edits' }],
    });
  });

  it("tells only a direct message's participants", async () => {
    const m = await storeMessage({ sender: 10, to: [12] });
    const queues = await openQueues([10, 11, 12]);
    expectSuccess(await del('hamlet@zulip.com', m.id));
    const event = { type: 'delete_message', message_ids: [m.id], message_type: 'private' };
    expect(await drainQueues(queues)).toEqual({ 10: [event], 11: [], 12: [event] });
  });

  it("lets an administrator delete anyone's message at any age", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    advanceClock(10 ** 8);
    expectSuccess(await del('iago@zulip.com', m.id));
    expect(await messagesStore.getMessage(2, m.id)).toBeUndefined();
  });

  it('refuses an administrator a direct message the administrator did not receive, as it cannot be accessed', async () => {
    const m = await storeMessage({ sender: 10, to: [12] });
    expectError(await del('iago@zulip.com', m.id), 'Invalid message(s)');
    await expectStored(m.id, [10, 12]);
  });

  it("refuses someone else's message and changes nothing", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    const queues = await openQueues([10, 12]);
    expectError(await del('shiva@zulip.com', m.id), "You don't have permission to delete this message");
    await expectStored(m.id, DENMARK);
    expect(await drainQueues(queues)).toEqual({ 10: [], 12: [] });
  });

  it('refuses the sender once the delete limit has passed, with no grace', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    advanceClock(601_000);
    expectError(await del('hamlet@zulip.com', m.id), 'The time limit for deleting this message has passed');
    await expectStored(m.id, DENMARK);
  });

  it("follows the organization's delete limit", async () => {
    const realm = (await realmsStore.get(2))!;
    await realmsStore.put({ ...realm, messageEditSettings: { messageContentDeleteLimitSeconds: 60 } });
    try {
      const m = await storeMessage({ sender: 10, channelId: 1 });
      advanceClock(61_000);
      expectError(await del('hamlet@zulip.com', m.id), 'The time limit for deleting this message has passed');
    } finally {
      await realmsStore.put(realm);
    }
  });

  it.each([
    ['a message that does not exist', 'hamlet@zulip.com', 99999],
    ["another organization's message", 'iago@zulip.com', 15],
    ['a protected-history message the user did not receive', 'cordelia@zulip.com', 3],
    ['a direct message the user did not receive', 'othello@zulip.com', 2],
  ])('answers "Invalid message(s)" for %s', async (_case, as, messageId) => {
    expectError(await del(as, messageId), 'Invalid message(s)');
  });

  it('answers "Invalid message(s)" for a message of an archived channel, even to an administrator', async () => {
    const m = await storeMessage({ sender: 11, channelId: 1 });
    const denmark = (await channelsStore.getChannel(2, 1))!;
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient, tableName } = await import('../../../lib/store/client');
    await documentClient().send(
      new PutCommand({ TableName: tableName('main'), Item: { ...channelsStore.buildChannelItem({ ...denmark, isArchived: true }) } }),
    );
    try {
      expectError(await del('iago@zulip.com', m.id), 'Invalid message(s)');
      await expectStored(m.id, DENMARK);
    } finally {
      await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: channelsStore.buildChannelItem(denmark) }));
    }
  });

  it('answers "Invalid message(s)" to a second delete', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    expectSuccess(await del('hamlet@zulip.com', m.id));
    expectError(await del('hamlet@zulip.com', m.id), 'Invalid message(s)');
  });

  it('answers "Message already deleted" to the loser of two concurrent deletes', async () => {
    const m = await storeMessage({ sender: 10, to: [12] });
    const hamlet = (await usersStore.get(2, 10))!;
    const message = (await editsStore.getEditableMessage(2, m.id))!;
    await doDeleteMessage(hamlet, message, null);
    await expect(doDeleteMessage(hamlet, message, null)).rejects.toThrow('Message already deleted');
  });

  it("lets a bot's owner delete the bot's message", async () => {
    const m = await storeMessage({ sender: 16, channelId: 3 });
    expectSuccess(await del('desdemona@zulip.com', m.id));
    expect(await messagesStore.getMessage(2, m.id)).toBeUndefined();
  });

  it("tells only the subscribers who received it when the channel's history is protected", async () => {
    const m = await storeMessage({ sender: 9, channelId: 6 });
    const queues = await openQueues([9, 10, 11, 12]);
    expectSuccess(await del('desdemona@zulip.com', m.id));
    const event = { type: 'delete_message', message_ids: [m.id], message_type: 'stream', stream_id: 6, topic: 'edits' };
    expect(await drainQueues(queues)).toEqual({ 9: [event], 10: [event], 11: [event], 12: [] });
  });
});

describe('DELETE /messages/{message_id}: everyone who holds a row', () => {
  const star = (as: string, messageId: number) =>
    call(flagsHandler, { method: 'POST', path: '/messages/flags', as, params: { messages: [messageId], op: 'add', flag: 'starred' } });

  it('deletes the row of a recipient who has since unsubscribed, and tells them as a non-guest with a row', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'left' });
    await setSubscribed(2, 12, 1, false);
    try {
      const queues = await openQueues([12]);
      expectSuccess(await del('hamlet@zulip.com', m.id));
      expect(await editsStore.listRowsOfMessage(m.id, [12])).toEqual([]);
      expect(await drainQueues(queues)).toEqual({
        12: [{ type: 'delete_message', message_ids: [m.id], message_type: 'stream', stream_id: 1, topic: 'left' }],
      });
    } finally {
      await setSubscribed(2, 12, 1, true);
    }
  });

  it('deletes the row of a recipient deactivated since', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'gone' });
    const prospero = (await usersStore.get(2, 14))!;
    await usersStore.put({ ...prospero, isActive: false });
    await setSubscribed(2, 14, 1, true);
    try {
      expect(await channelsStore.listSubscriberIdsOfChannel(1)).not.toContain(14);
      expectSuccess(await del('hamlet@zulip.com', m.id));
      expect(await editsStore.listRowsOfMessage(m.id, [14])).toEqual([]);
    } finally {
      await usersStore.put(prospero);
      await setSubscribed(2, 14, 1, true);
    }
  });

  it('deletes the historical row of a non-subscriber who starred the message, and tells them', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'starred' });
    expectSuccess(await star('cordelia@zulip.com', m.id));
    expect((await editsStore.listRowsOfMessage(m.id, [8])).map((r) => r.flags)).toEqual([['read', 'historical', 'starred']]);
    const queues = await openQueues([8]);
    expectSuccess(await del('hamlet@zulip.com', m.id));
    expect(await editsStore.listRowsOfMessage(m.id, [8])).toEqual([]);
    expect(await drainQueues(queues)).toEqual({
      8: [{ type: 'delete_message', message_ids: [m.id], message_type: 'stream', stream_id: 1, topic: 'starred' }],
    });
  });

  it('deletes every row of a message stored before recipients records existed, after a non-subscriber starred it', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'before records' });
    await documentClient().send(new DeleteCommand({ TableName: tableName('main'), Key: entityKeys.messageRecipients(2, m.id, '0000') }));
    expect(await messagesStore.getRowHolderRecord(2, m.id)).toEqual({ sent: undefined, later: [] });
    expectSuccess(await star('cordelia@zulip.com', m.id));
    expectSuccess(await del('hamlet@zulip.com', m.id));
    expect(await editsStore.listRowsOfMessage(m.id, [...DENMARK, 8])).toEqual([]);
  });

  it("removes the message's recipients record with it", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1 });
    expect(await messagesStore.getRowHolderRecord(2, m.id)).toEqual({ sent: DENMARK, later: [] });
    expectSuccess(await del('hamlet@zulip.com', m.id));
    expect(await messagesStore.getRowHolderRecord(2, m.id)).toEqual({ sent: undefined, later: [] });
  });
});

describe('register after a delete', () => {
  it('equals the previous unread summary without the deleted channel message', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'deleted soon' });
    const before = await registerState('iago@zulip.com');
    expect(before.unread_msgs.streams).toContainEqual({ stream_id: 1, topic: 'deleted soon', unread_message_ids: [m.id] });
    expectSuccess(await del('hamlet@zulip.com', m.id));
    const after = await registerState('iago@zulip.com');
    const expected = {
      ...before.unread_msgs,
      count: before.unread_msgs.count - 1,
      streams: before.unread_msgs.streams.filter((s: { topic: string }) => s.topic !== 'deleted soon'),
    };
    expect(after.unread_msgs).toEqual(expected);
    expect(after.max_message_id).toBe(before.max_message_id === m.id ? after.max_message_id : before.max_message_id);
  });

  it('drops a direct conversation whose only message was deleted, and lowers one whose newest was', async () => {
    const only = await storeMessage({ sender: 10, to: [14] });
    const first = await storeMessage({ sender: 10, to: [15] });
    const newest = await storeMessage({ sender: 10, to: [15] });
    const before = await registerState('hamlet@zulip.com');
    expect(before.recent_private_conversations.slice(0, 3)).toEqual([
      { max_message_id: newest.id, user_ids: [15] },
      { max_message_id: only.id, user_ids: [14] },
      ...before.recent_private_conversations.slice(2, 3),
    ]);
    expectSuccess(await del('hamlet@zulip.com', only.id));
    expectSuccess(await del('hamlet@zulip.com', newest.id));
    const after = await registerState('hamlet@zulip.com');
    expect(after.recent_private_conversations).toEqual([
      { max_message_id: first.id, user_ids: [15] },
      ...before.recent_private_conversations.filter(
        (c: { user_ids: number[] }) => c.user_ids.join() !== '15' && c.user_ids.join() !== '14',
      ),
    ]);
  });

  it("updates the channel's first message id with a stream event to those who see the channel, not guests outside it", async () => {
    const britainless = (await channelsStore.getChannel(2, 4))!; // Venice: its first message is seeded message 1
    expect(britainless.firstMessageId).toBe(1);
    const queues = await openQueues([9, 12, 13]);
    expectSuccess(await del('iago@zulip.com', 1));
    const events = await drainQueues(queues);
    const streamEvent = { type: 'stream', op: 'update', stream_id: 4, name: 'Venice', property: 'first_message_id', value: null };
    expect(events[9]).toEqual([
      { type: 'delete_message', message_ids: [1], message_type: 'stream', stream_id: 4, topic: 'canals' },
      streamEvent,
    ]);
    expect(events[12]).toEqual([streamEvent]);
    expect(events[13]).toEqual([]);
    expect((await channelsStore.getChannel(2, 4))!.firstMessageId).toBeNull();
  });
});
