// POST /messages/flags and POST /messages/flags/narrow against the development data: Iago (11) has
// unread 6, 7, 14 (Verona), 8 (Denmark), 9, 10 (Scotland, muted), 11 (DM from Hamlet), 13 (group);
// starred 3 and 5. Cordelia (8) is subscribed to Verona only; Polonius (13) is a guest.
import { handler as register } from '../../../functions/events/register';
import { handler as flagsHandler } from '../../../functions/messages/update-flags';
import { handler as narrowHandler } from '../../../functions/messages/update-flags-narrow';
import { getUserMessage } from '../../../lib/store/messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 'iago@zulip.com';
const flags = (as: string, params: Record<string, unknown>) => call(flagsHandler, { method: 'POST', path: '/messages/flags', as, params });
const byNarrow = (as: string, params: Record<string, unknown>) =>
  call(narrowHandler, { method: 'POST', path: '/messages/flags/narrow', as, params });
const flagsOf = async (userId: number, messageId: number) => (await getUserMessage(userId, messageId))?.flags;

/** Register's message state of a user (unread counts, starred ids). */
const snapshot = async (as: string) => {
  const body = expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as,
      params: {
        fetch_event_types: ['message', 'update_message_flags', 'starred_messages'],
        client_capabilities: { empty_topic_name: true },
      },
    }),
  );
  return { unread: body.unread_msgs, starred: body.starred_messages as number[] };
};

describe('POST /messages/flags: errors, with nothing changed', () => {
  it.each([
    [{ flag: 'invalid', op: 'add', messages: [6] }, "Invalid flag: 'invalid'"],
    [{ flag: 'is_private', op: 'add', messages: [6] }, "Invalid flag: 'is_private'"],
    [{ flag: 'active_mobile_push_notification', op: 'add', messages: [6] }, "Invalid flag: 'active_mobile_push_notification'"],
    [{ flag: 'wildcard_mentioned', op: 'add', messages: [6] }, "Invalid flag: 'wildcard_mentioned'"],
    [{ flag: 'mentioned', op: 'add', messages: [6] }, "Flag not editable: 'mentioned'"],
    [{ flag: 'historical', op: 'remove', messages: [6] }, "Flag not editable: 'historical'"],
    [{ flag: 'read', op: 'bogus', messages: [6] }, "Invalid message flag operation: 'bogus'"],
    [{ flag: 'read', op: 'add', messages: '6' }, 'messages is not a list'],
    [{ flag: 'read', op: 'add', messages: ['a'] }, 'messages[0] is not an integer'],
    [{ op: 'add', messages: [6] }, "Missing 'flag' argument"],
  ])('refuses %j with "%s"', async (params, message) => {
    const queue = await openQueue(IAGO);
    const result = await flags(IAGO, params);
    if (message.startsWith('Missing')) expectError(result, message, 400, 'REQUEST_VARIABLE_MISSING');
    else expectError(result, message);
    expect(await flagsOf(11, 6)).toEqual([]);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['a direct message of others', 'othello@zulip.com', 11],
    ['a private channel message without access', 'othello@zulip.com', 3],
    ['a public channel message, for a guest', 'polonius@zulip.com', 8],
    ['another organization message', IAGO, 15],
    ['a message that does not exist', IAGO, 999],
  ])('refuses to star %s with "Invalid message(s)", and stars nothing else', async (_name, as, id) => {
    const queue = await openQueue(as);
    expectError(await flags(as, { flag: 'starred', op: 'add', messages: [6, id] }), 'Invalid message(s)');
    expect(await queue.drain()).toEqual([]);
    expect(await getUserMessage(as === IAGO ? 11 : as.startsWith('othello') ? 12 : 13, id)).toBeUndefined();
  });
});

describe('POST /messages/flags', () => {
  it('marks messages read, tells only the user queues, and register counts them read', async () => {
    const before = await snapshot(IAGO);
    const [mine, hamlet] = [await openQueue(IAGO), await openQueue('hamlet@zulip.com')];
    const body = expectSuccess(await flags(IAGO, { flag: 'read', op: 'add', messages: [11, 7, 5] }));
    expect(body).toEqual({ result: 'success', msg: '', messages: [11, 7, 5], ignored_because_not_subscribed_channels: [] });
    expect(await mine.drain()).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [11, 7], all: false },
    ]);
    expect(await hamlet.drain()).toEqual([]);
    const after = await snapshot(IAGO);
    expect(after.unread.count).toBe(before.unread.count - 2);
    expect(after.unread.pms).toEqual([]);
    expect(after.unread.mentions).toEqual(before.unread.mentions.filter((id: number) => id !== 7));
    expect(after.unread.streams.find((s: { topic: string }) => s.topic === 'test').unread_message_ids).toEqual([6]);
  });

  it('marks messages unread with message_details, and register counts them again', async () => {
    await flags(IAGO, { flag: 'read', op: 'add', messages: [7, 13, 10] });
    const before = await snapshot(IAGO);
    const queue = await openQueue(IAGO, { capabilities: { empty_topic_name: true } });
    expectSuccess(await flags(IAGO, { flag: 'read', op: 'remove', messages: [7, 13, 10, 6] }));
    expect(await queue.drain()).toEqual([
      {
        type: 'update_message_flags',
        op: 'remove',
        operation: 'remove',
        flag: 'read',
        messages: [7, 13, 10],
        all: false,
        message_details: {
          '7': { type: 'stream', stream_id: 3, topic: 'test', unmuted_stream_msg: true, mentioned: true },
          '13': { type: 'private', user_ids: [10, 12] },
          '10': { type: 'stream', stream_id: 2, topic: 'highlands', unmuted_stream_msg: false },
        },
      },
    ]);
    const after = await snapshot(IAGO);
    expect(after.unread.count).toBe(before.unread.count + 2);
    expect(after.unread.huddles).toEqual([{ user_ids_string: '10,11,12', unread_message_ids: [13] }]);
    expect(after.unread.mentions).toEqual([...before.unread.mentions, 7].sort((a: number, b: number) => a - b));
  });

  it('shows the empty topic of message_details as "general chat" to queues without empty_topic_name', async () => {
    await flags(IAGO, { flag: 'read', op: 'add', messages: [14] });
    const queue = await openQueue(IAGO);
    await flags(IAGO, { flag: 'read', op: 'remove', messages: [14] });
    const [event] = await queue.drain();
    expect(event.message_details['14']).toEqual({ type: 'stream', stream_id: 3, topic: 'general chat', unmuted_stream_msg: true });
  });

  it('does not mark unread the messages of a channel the user left, and names the channel', async () => {
    const queue = await openQueue(IAGO);
    const body = expectSuccess(await flags(IAGO, { flag: 'read', op: 'remove', messages: [1] }));
    expect(body.ignored_because_not_subscribed_channels).toEqual([4]);
    expect((await queue.drain())[0].messages).toEqual([]);
  });

  it('stars a public channel message the user never received by creating a historical row', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await flags('cordelia@zulip.com', { flag: 'starred', op: 'add', messages: [8] }));
    expect(await flagsOf(8, 8)).toEqual(['read', 'historical', 'starred']);
    expect(await queue.drain()).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [8], all: false },
    ]);
    expect((await snapshot('cordelia@zulip.com')).starred).toEqual([8]);
  });

  it('does nothing when marking read a message without a row, even one that does not exist, and still sends the event', async () => {
    const queue = await openQueue(IAGO);
    expectSuccess(await flags(IAGO, { flag: 'read', op: 'add', messages: [999, 15] }));
    expect(await queue.drain()).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: false },
    ]);
    expect(await getUserMessage(11, 999)).toBeUndefined();
  });

  it('unstars, and register drops the id', async () => {
    expectSuccess(await flags(IAGO, { flag: 'starred', op: 'remove', messages: [3] }));
    expect((await snapshot(IAGO)).starred).toEqual([5]);
  });

  it('keeps both of two concurrent changes to one message', async () => {
    await Promise.all([
      flags(IAGO, { flag: 'starred', op: 'add', messages: [9] }),
      flags(IAGO, { flag: 'read', op: 'add', messages: [9] }),
      flags(IAGO, { flag: 'collapsed', op: 'add', messages: [9] }),
    ]);
    expect([...(await flagsOf(11, 9))!].sort()).toEqual(['collapsed', 'read', 'starred']);
    const state = await snapshot(IAGO);
    expect(state.starred).toContain(9);
    expect(state.unread.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids)).not.toContain(9);
  });

  it('counts a message once when two requests mark it read at the same time', async () => {
    const [a, b] = await Promise.all([
      flags('hamlet@zulip.com', { flag: 'read', op: 'add', messages: [13] }),
      flags('hamlet@zulip.com', { flag: 'read', op: 'add', messages: [13] }),
    ]);
    expectSuccess(a);
    expectSuccess(b);
    expect(await flagsOf(10, 13)).toEqual(['read']);
  });
});

/** A client's application of an `add read` event to register's unread_msgs (upstream's apply_event). */
const applyReadEvent = (unread: Record<string, any>, ids: number[], counted: number[]) => {
  const drop = (buckets: { unread_message_ids: number[] }[]) =>
    buckets
      .map((b) => ({ ...b, unread_message_ids: b.unread_message_ids.filter((id) => !ids.includes(id)) }))
      .filter((b) => b.unread_message_ids.length > 0);
  return {
    ...unread,
    pms: drop(unread.pms),
    streams: drop(unread.streams),
    huddles: drop(unread.huddles),
    mentions: unread.mentions.filter((id: number) => !ids.includes(id)),
    count: unread.count - ids.filter((id) => counted.includes(id)).length,
  };
};

describe('register after flag changes', () => {
  it('equals the previous snapshot with the events applied', async () => {
    const before = await snapshot(IAGO);
    const queue = await openQueue(IAGO, { eventTypes: ['update_message_flags'] });
    expectSuccess(await flags(IAGO, { flag: 'read', op: 'add', messages: [8, 10, 13] }));
    expectSuccess(
      await byNarrow(IAGO, {
        anchor: 'oldest',
        num_before: 0,
        num_after: 10,
        narrow: [['dm', 'hamlet@zulip.com']],
        flag: 'read',
        op: 'add',
      }),
    );
    const events = await queue.drain();
    const read = events.flatMap((e) => e.messages as number[]);
    // 10 is in muted Scotland: listed, but not counted.
    expect((await snapshot(IAGO)).unread).toEqual(applyReadEvent(before.unread, read, [8, 11, 13]));
  });
});

describe('POST /messages/flags/narrow', () => {
  it('marks the messages of a narrow read and reports the counts', async () => {
    const queue = await openQueue(IAGO);
    const body = expectSuccess(
      await byNarrow(IAGO, { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [['stream', 'Verona']], flag: 'read', op: 'add' }),
    );
    expect(body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 3,
      first_processed_id: 6,
      last_processed_id: 14,
      found_oldest: true,
      found_newest: true,
      ignored_because_not_subscribed_channels: [],
    });
    expect((await queue.drain())[0].messages).toEqual([6, 7, 14]);
  });

  it('selects with a null narrow every message of the user', async () => {
    const body = expectSuccess(
      await byNarrow(IAGO, { anchor: 'newest', num_before: 2, num_after: 0, narrow: null, flag: 'starred', op: 'add' }),
    );
    expect(body).toMatchObject({
      processed_count: 2,
      first_processed_id: 13,
      last_processed_id: 14,
      found_newest: true,
      found_oldest: false,
    });
  });

  it('answers null ids and zero counts when nothing is selected', async () => {
    const body = expectSuccess(
      await byNarrow(IAGO, {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [{ operator: 'dm', operand: [] }],
        flag: 'read',
        op: 'add',
      }),
    );
    expect(body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null });
  });

  it.each([
    [{ flag: 'read', op: 'add', num_before: 0, num_after: 0, narrow: [] }, "Missing 'anchor' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ anchor: 'x', flag: 'read', op: 'add', num_before: 0, num_after: 0, narrow: [] }, 'Invalid anchor', 'BAD_REQUEST'],
    [
      { anchor: '5', flag: 'read', op: 'add', num_before: 1, num_after: 1, include_anchor: false, narrow: [] },
      'The anchor can only be excluded at an end of the range',
      'BAD_REQUEST',
    ],
    [
      { anchor: '5', flag: 'read', op: 'add', num_before: 1, num_after: 1, narrow: [['x', 'y', 'z']] },
      'Invalid narrow[0]: Value error, element is not a string pair',
      'BAD_REQUEST',
    ],
    [
      { anchor: '5', flag: 'read', op: 'add', num_before: 1, num_after: 1, narrow: [{ operand: 'x' }] },
      'Invalid narrow[0]: Value error, operator is missing',
      'BAD_REQUEST',
    ],
    [
      { anchor: '5', flag: 'bogus', op: 'add', num_before: 1, num_after: 1, narrow: [['with', '5']] },
      'Invalid narrow operator: unknown operator with',
      'BAD_NARROW',
    ],
    [{ anchor: '5', flag: 'bogus', op: 'add', num_before: 1, num_after: 1, narrow: [] }, "Invalid flag: 'bogus'", 'BAD_REQUEST'],
  ])('refuses %j with "%s"', async (params, message, code) => {
    const queue = await openQueue(IAGO);
    const before = await Promise.all([5, 6, 8].map((id) => flagsOf(11, id)));
    expectError(await byNarrow(IAGO, params), message, 400, code);
    expect(await queue.drain()).toEqual([]);
    expect(await Promise.all([5, 6, 8].map((id) => flagsOf(11, id)))).toEqual(before);
  });
});
