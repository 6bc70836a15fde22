// PATCH /messages/{message_id} with stream_id: moving messages to another channel, against the
// development data. Subscribers: Denmark (1) 7, 9, 10, 11, 12, 14, 15; Scotland (2) 7, 11, 12, 14,
// 15; Verona (3) everyone, Polonius (13, a guest) included; core team (6, private, protected
// history) 9, 10, 11. Iago (11) is an administrator, Shiva (15) a moderator. Upstream:
// zerver/tests/test_message_move_stream.py, and test_message_move_topic.py for the topic
// policies and notices that follow a move.
import { handler as register } from '../../../functions/events/register';
import { RealmGroups } from '../../../lib/access/user-groups';
import { advanceClock } from '../../../lib/clock';
import * as channelsStore from '../../../lib/store/channels';
import * as editsStore from '../../../lib/store/message-edits';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';
import * as userTopicsStore from '../../../lib/store/user-topics';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel } from '../../helpers/channels';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { withRealm } from '../../helpers/realm';
import { storeMessage } from '../../helpers/stored-messages';
import { editMessage as patch } from '../../helpers/messages';

const openQueues = (ids: number[]) => openQueuesOf(ids, { capabilities: { empty_topic_name: true } });

const unreadOf = async (email: string) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as: email,
      params: { fetch_event_types: ['message', 'update_message_flags'], client_capabilities: { empty_topic_name: true } },
    }),
  ).unread_msgs as { streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] };

/** The message and every row of it are as stored before: same channel, topic, no history. */
const expectUnmoved = async (m: { id: number; streamId: number | null; topic: string }) => {
  const now = (await editsStore.getEditableMessage(2, m.id))!;
  expect({ streamId: now.streamId, topic: now.topic, editHistory: now.editHistory }).toEqual({
    streamId: m.streamId,
    topic: m.topic,
    editHistory: undefined,
  });
  for (const row of await messagesStore.getRowsOfMessage(m.id, [7, 9, 10, 11, 12, 14, 15])) {
    expect({ streamId: row.streamId, topic: row.topic }).toEqual({ streamId: m.streamId, topic: m.topic });
  }
};

const systemGroupId = async (name: string) => (await RealmGroups.load(2)).systemGroup(name).id;

describe('PATCH /messages/{message_id} with stream_id: refusals, nothing changed', () => {
  it('answers "Invalid channel ID" for a channel that does not exist or that the user may not read', async () => {
    const m = await storeMessage({ sender: 12, channelId: 1, topic: 'nowhere' });
    expectError(await patch('othello@zulip.com', m.id, { stream_id: 999 }), 'Invalid channel ID');
    expectError(await patch('othello@zulip.com', m.id, { stream_id: 6 }), 'Invalid channel ID');
    await expectUnmoved(m);
  });

  it("refuses a member outside the organization's can_move_messages_between_channels_group, and lets an administrator move", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'admins only' });
    const realm = (await realmsStore.get(2))!;
    const groupSettings = { ...realm.groupSettings, can_move_messages_between_channels_group: await systemGroupId('role:administrators') };
    await withRealm({ groupSettings }, async () => {
      expectError(await patch('hamlet@zulip.com', m.id, { stream_id: 3 }), "You don't have permission to move this message");
      await expectUnmoved(m);
      expectSuccess(await patch('iago@zulip.com', m.id, { stream_id: 3, send_notification_to_new_thread: false }));
    });
    expect((await messagesStore.getMessage(2, m.id))!.streamId).toBe(3);
  });

  it("lets a member of the source channel's can_move_messages_out_of_channel_group move when the organization does not", async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'out of denmark' });
    const realm = (await realmsStore.get(2))!;
    const groupSettings = { ...realm.groupSettings, can_move_messages_between_channels_group: await systemGroupId('role:nobody') };
    await withRealm({ groupSettings }, async () => {
      await changeChannel(2, 1, {
        groupSettings: { can_move_messages_out_of_channel_group: { direct_members: [10], direct_subgroups: [] } },
      });
      try {
        expectError(await patch('othello@zulip.com', m.id, { stream_id: 3 }), "You don't have permission to move this message");
        await expectUnmoved(m);
        expectSuccess(await patch('hamlet@zulip.com', m.id, { stream_id: 3, send_notification_to_new_thread: false }));
      } finally {
        await changeChannel(2, 1, { groupSettings: { can_move_messages_out_of_channel_group: await systemGroupId('role:nobody') } });
      }
    });
    expect((await messagesStore.getMessage(2, m.id))!.streamId).toBe(3);
  });

  it('refuses a destination whose can_send_message_group leaves the user out', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'no posting' });
    await changeChannel(2, 2, { groupSettings: { can_send_message_group: await systemGroupId('role:administrators') } });
    try {
      expectError(await patch('hamlet@zulip.com', m.id, { stream_id: 2 }), 'You do not have permission to post in this channel.');
      await expectUnmoved(m);
    } finally {
      await changeChannel(2, 2, { groupSettings: { can_send_message_group: await systemGroupId('role:everyone') } });
    }
  });

  it('refuses a non-moderator after the seven-day limit for moving between channels, and lets a moderator move', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'a week ago' });
    advanceClock((604_800 + 21) * 1000);
    expectError(await patch('hamlet@zulip.com', m.id, { stream_id: 3 }), "The time limit for editing this message's channel has passed");
    await expectUnmoved(m);
    expectSuccess(await patch('shiva@zulip.com', m.id, { stream_id: 3, send_notification_to_new_thread: false }));
  });

  it('refuses change_all when some messages are past the stricter of the two limits, with the counts', async () => {
    const old = await storeMessage({ sender: 10, channelId: 1, topic: 'both limits' });
    advanceClock(3_600_000);
    const recent = await storeMessage({ sender: 10, channelId: 1, topic: 'both limits' });
    await withRealm({ messageEditSettings: { moveMessagesBetweenStreamsLimitSeconds: 600 } as never }, async () => {
      const result = await patch('hamlet@zulip.com', recent.id, { stream_id: 3, topic: 'moved', propagate_mode: 'change_all' });
      expectError(
        result,
        'You only have permission to move the 1/2 most recent messages in this topic.',
        400,
        'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      );
      expect(result.body).toMatchObject({ first_message_id_allowed_to_move: recent.id, total_messages_in_topic: 2 });
    });
    await expectUnmoved(old);
    await expectUnmoved(recent);
  });

  it('refuses a topic the destination cannot have (empty_topic_only), and a new topic the user may not create', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'policy' });
    await changeChannel(2, 2, { topicsPolicy: 'empty_topic_only' });
    try {
      expectError(await patch('hamlet@zulip.com', m.id, { stream_id: 2 }), 'Only the general chat topic is allowed in this channel.');
    } finally {
      await changeChannel(2, 2, { topicsPolicy: 'inherit' });
    }
    await changeChannel(2, 2, { groupSettings: { can_create_topic_group: await systemGroupId('role:administrators') } });
    try {
      expectError(
        await patch('hamlet@zulip.com', m.id, { stream_id: 2 }),
        'You do not have permission to create new topics in this channel.',
      );
    } finally {
      await changeChannel(2, 2, { groupSettings: { can_create_topic_group: await systemGroupId('role:everyone') } });
    }
    await expectUnmoved(m);
  });
});

describe('PATCH /messages/{message_id} with stream_id: the move', () => {
  it('moves one message to a public channel: the item, every row, the topics and history, and tells each side', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'travel' });
    const stays = await storeMessage({ sender: 10, channelId: 1, topic: 'travel' });
    const queues = await openQueues([12, 8, 13]);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { stream_id: 3 }));

    const stored = (await editsStore.getEditableMessage(2, m.id))!;
    expect({ streamId: stored.streamId, topic: stored.topic }).toEqual({ streamId: 3, topic: 'travel' });
    expect(stored.editHistory).toEqual([{ user_id: 10, timestamp: expect.any(Number), prev_stream: 1, stream: 3 }]);
    expect((await messagesStore.getMessage(2, stays.id))!.streamId).toBe(1);
    // Othello is subscribed to both: his row follows, still unread.
    expect(await messagesStore.getUserMessage(12, m.id)).toMatchObject({ streamId: 3, topic: 'travel', flags: [] });
    const topicsOf = async (c: number) => (await topicsStore.listTopicsOfChannel(c)).map((t) => [t.topic, t.maxMessageId]);
    expect(await topicsOf(1)).toContainEqual(['travel', stays.id]);
    expect((await topicsOf(3)).find(([t]) => t === 'travel')).toEqual(['travel', expect.any(Number)]);

    const events = await drainQueues(queues);
    const moved = {
      type: 'update_message',
      user_id: 10,
      edit_timestamp: expect.any(Number),
      message_id: m.id,
      message_ids: [m.id],
      rendering_only: false,
      stream_name: 'Denmark',
      stream_id: 1,
      propagate_mode: 'change_one',
      orig_subject: 'travel',
      new_stream_id: 3,
    };
    expect(events[12][0]).toEqual({ ...moved, flags: [] });
    expect(events[12][0]).not.toHaveProperty('subject');
    // Cordelia is subscribed to Verona only: told, without a row.
    expect(events[8][0]).toEqual({ ...moved, flags: ['read'] });
    // A guest subscribed to the new channel only is not told of the move; the notice reaches everyone there.
    expect(events[13].map((e) => e.type)).toEqual(['message']);
    const notice = events[13][0].message;
    expect(notice.sender_email).toBe('notification-bot@zulip.com');
    expect(notice.content).toMatch(
      /^\[A message\]\(http:\/\/localhost:3000\/#narrow\/channel\/3-Verona\/topic\/travel\/near\/\d+\) was moved here from #\*\*Denmark>travel\*\* by @_\*\*King Hamlet\|10\*\*\.$/,
    );
    expect(events[12][1].message.id).toBe(notice.id);
  });

  it("posts upstream's notices: the whole topic into a new topic, and in the old topic when asked", async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'notices' });
    const b = await storeMessage({ sender: 12, channelId: 1, topic: 'notices' });
    expectSuccess(
      await patch('hamlet@zulip.com', a.id, {
        stream_id: 3,
        topic: 'noticed',
        propagate_mode: 'change_all',
        send_notification_to_old_thread: true,
      }),
    );
    const [newNotice] = await messagesStore.getMessagesByIds(2, await topicsStore.listNewestMessageIdsOfTopic(3, 'noticed'));
    expect(newNotice.content).toBe('This topic was moved here from #**Denmark>notices** by @_**King Hamlet|10**.');
    const oldIds = await topicsStore.listNewestMessageIdsOfTopic(1, 'notices');
    expect(oldIds).toHaveLength(1);
    const [oldNotice] = await messagesStore.getMessagesByIds(2, oldIds);
    expect(oldNotice.content).toBe('This topic was moved to #**Verona>noticed** by @_**King Hamlet|10**.');
    // The mover has both read.
    expect((await messagesStore.getUserMessage(10, oldNotice.id))!.flags).toContain('read');
    expect((await messagesStore.getMessagesByIds(2, [b.id]))[0]).toMatchObject({ streamId: 3, topic: 'noticed' });
  });

  it('counts the moved messages in the notices when part of a topic moves into one that has messages', async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'partly' });
    const b = await storeMessage({ sender: 10, channelId: 1, topic: 'partly' });
    await storeMessage({ sender: 10, channelId: 1, topic: 'partly' });
    await storeMessage({ sender: 10, channelId: 3, topic: 'existing' });
    expectSuccess(
      await patch('hamlet@zulip.com', b.id, {
        stream_id: 3,
        topic: 'existing',
        propagate_mode: 'change_one',
        send_notification_to_old_thread: true,
      }),
    );
    expect(a.id).toBeLessThan(b.id);
    const newest = async (c: number, t: string) =>
      (await messagesStore.getMessagesByIds(2, (await topicsStore.listNewestMessageIdsOfTopic(c, t)).slice(0, 1)))[0].content;
    expect(await newest(3, 'existing')).toMatch(
      /^\[A message\]\(http:\/\/localhost:3000\/#narrow\/channel\/3-Verona\/topic\/existing\/near\/\d+\) was moved here from #\*\*Denmark>partly\*\* by @_\*\*King Hamlet\|10\*\*\.$/,
    );
    expect(await newest(1, 'partly')).toBe('A message was moved from this topic to #**Verona>existing** by @_**King Hamlet|10**.');
  });

  it('moves a topic into a private channel with protected history: the others lose their rows and are told it was deleted', async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'secret' });
    const b = await storeMessage({ sender: 12, channelId: 1, topic: 'secret' });
    const queues = await openQueues([12, 9]);
    const bulk = await openQueuesOf([12], { capabilities: { empty_topic_name: true, bulk_message_deletion: true } });
    expectSuccess(
      await patch('hamlet@zulip.com', a.id, { stream_id: 6, propagate_mode: 'change_all', send_notification_to_new_thread: false }),
    );
    const events = await drainQueues(queues);
    const deleted = { type: 'delete_message', message_type: 'stream', stream_id: 1, topic: 'secret' };
    expect((await drainQueues(bulk))[12]).toEqual([{ ...deleted, message_ids: [a.id, b.id] }]);
    // A queue without bulk_message_deletion gets one event per message, as upstream's queues rewrite it.
    expect(events[12]).toHaveLength(2);
    expect(events[12]).toEqual(
      expect.arrayContaining([
        { ...deleted, message_id: a.id },
        { ...deleted, message_id: b.id },
      ]),
    );
    expect(events[9]).toEqual([
      expect.objectContaining({ type: 'update_message', message_ids: [a.id, b.id], new_stream_id: 6, flags: [] }),
    ]);
    expect(await messagesStore.getUserMessage(12, a.id)).toBeUndefined();
    expect(await messagesStore.getUserMessage(7, b.id)).toBeUndefined();
    expect(await messagesStore.getUserMessage(9, b.id)).toMatchObject({ streamId: 6, topic: 'secret' });
    // Othello's unread count no longer has them; Desdemona's follows them to the new channel.
    expect((await unreadOf('othello@zulip.com')).streams.some((s) => s.unread_message_ids.includes(a.id))).toBe(false);
    expect((await unreadOf('desdemona@zulip.com')).streams).toContainEqual(
      expect.objectContaining({ stream_id: 6, topic: 'secret', unread_message_ids: [a.id, b.id] }),
    );
    // The topic is in the new channel's topics of those who received it.
    expect((await topicsStore.listReceivedTopicsOfChannel(9, 6)).map((t) => t.topic)).toContain('secret');
  });

  it('moves to a public channel: a guest not subscribed there loses access, other non-subscribers keep it without a row', async () => {
    const m = await storeMessage({ sender: 10, channelId: 3, topic: 'to denmark' });
    const queues = await openQueues([13, 8, 12]);
    expectSuccess(await patch('hamlet@zulip.com', m.id, { stream_id: 1, send_notification_to_new_thread: false }));
    const events = await drainQueues(queues);
    expect(events[13]).toEqual([{ type: 'delete_message', message_id: m.id, message_type: 'stream', stream_id: 3, topic: 'to denmark' }]);
    expect(await messagesStore.getUserMessage(13, m.id)).toBeUndefined();
    // Cordelia, not subscribed to Denmark, loses her row (as upstream) but may still read the public channel: told, as read.
    expect(await messagesStore.getUserMessage(8, m.id)).toBeUndefined();
    expect(events[8]).toEqual([expect.objectContaining({ type: 'update_message', new_stream_id: 1, flags: ['read'] })]);
    expect(events[12]).toEqual([expect.objectContaining({ type: 'update_message', new_stream_id: 1, flags: [] })]);
  });

  it("gives the protected channel's subscribers without a row a read row", async () => {
    const m = await storeMessage({ sender: 12, channelId: 2, topic: 'from scotland' });
    expectSuccess(await patch('iago@zulip.com', m.id, { stream_id: 6, send_notification_to_new_thread: false }));
    expect(await messagesStore.getUserMessage(9, m.id)).toMatchObject({ streamId: 6, flags: ['read'] });
    expect(await messagesStore.getUserMessage(10, m.id)).toMatchObject({ streamId: 6, flags: ['read'] });
    expect(await messagesStore.getUserMessage(12, m.id)).toBeUndefined();
    expect(await messagesStore.getUserMessage(11, m.id)).toMatchObject({ streamId: 6 });
    // The rows are recorded, so a later delete reaches them.
    const { later } = await messagesStore.getRowHolderRecord(2, m.id);
    expect(later).toEqual(expect.arrayContaining([9, 10]));
  });
});

describe('PATCH /messages/{message_id}: topic policies move with the whole topic', () => {
  const NOW = 1_900_000_000;

  it('carries a muted topic to its new name within the channel, with user_topic events', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'muted here' });
    await userTopicsStore.createUserTopic({ userId: 12, channelId: 1, topic: 'muted here', visibilityPolicy: 1, lastUpdated: NOW });
    const queues = await openQueues([12]);
    expectSuccess(
      await patch('hamlet@zulip.com', m.id, { topic: 'muted there', propagate_mode: 'change_all', send_notification_to_new_thread: false }),
    );
    expect(await userTopicsStore.getUserTopic(12, 1, 'muted here')).toBeUndefined();
    expect(await userTopicsStore.getUserTopic(12, 1, 'muted there')).toMatchObject({ visibilityPolicy: 1, topic: 'muted there' });
    const events = (await drainQueues(queues))[12].filter((e) => e.type !== 'update_message');
    expect(events).toEqual([
      { type: 'user_topic', stream_id: 1, topic_name: 'muted here', last_updated: expect.any(Number), visibility_policy: 0 },
      { type: 'muted_topics', muted_topics: expect.arrayContaining([['Denmark', 'muted there', expect.any(Number)]]) },
      { type: 'user_topic', stream_id: 1, topic_name: 'muted there', last_updated: expect.any(Number), visibility_policy: 1 },
    ]);
  });

  it('keeps the policies where they are when only part of the topic moves', async () => {
    const a = await storeMessage({ sender: 10, channelId: 1, topic: 'half' });
    await storeMessage({ sender: 10, channelId: 1, topic: 'half' });
    await userTopicsStore.createUserTopic({ userId: 12, channelId: 1, topic: 'half', visibilityPolicy: 3, lastUpdated: NOW });
    expectSuccess(await patch('hamlet@zulip.com', a.id, { stream_id: 3, send_notification_to_new_thread: false }));
    expect(await userTopicsStore.getUserTopic(12, 1, 'half')).toMatchObject({ visibilityPolicy: 3 });
    expect(await userTopicsStore.getUserTopic(12, 3, 'half')).toBeUndefined();
  });

  it('merges into a topic that has messages (the more visible policy wins), and drops the policy of a user who lost access', async () => {
    const m = await storeMessage({ sender: 10, channelId: 1, topic: 'merging' });
    await storeMessage({ sender: 10, channelId: 6, topic: 'merged' });
    await userTopicsStore.createUserTopic({ userId: 9, channelId: 1, topic: 'merging', visibilityPolicy: 3, lastUpdated: NOW });
    await userTopicsStore.createUserTopic({ userId: 9, channelId: 6, topic: 'merged', visibilityPolicy: 1, lastUpdated: NOW });
    await userTopicsStore.createUserTopic({ userId: 12, channelId: 1, topic: 'merging', visibilityPolicy: 1, lastUpdated: NOW });
    expectSuccess(
      await patch('hamlet@zulip.com', m.id, {
        stream_id: 6,
        topic: 'merged',
        propagate_mode: 'change_all',
        send_notification_to_new_thread: false,
      }),
    );
    expect(await userTopicsStore.getUserTopic(9, 6, 'merged')).toMatchObject({ visibilityPolicy: 3 });
    expect(await userTopicsStore.getUserTopic(9, 1, 'merging')).toBeUndefined();
    expect(await userTopicsStore.getUserTopic(12, 1, 'merging')).toBeUndefined();
    expect(await userTopicsStore.getUserTopic(12, 6, 'merged')).toBeUndefined();
  });

  it('reads the policies of a topic from its index, whatever its spelling', async () => {
    await userTopicsStore.createUserTopic({ userId: 8, channelId: 3, topic: 'Spelled', visibilityPolicy: 2, lastUpdated: NOW });
    expect((await userTopicsStore.listPoliciesOfTopic(3, 'spelled')).map((t) => [t.userId, t.visibilityPolicy])).toEqual([[8, 2]]);
    expect(await channelsStore.getChannel(2, 3)).toBeDefined();
  });
});
