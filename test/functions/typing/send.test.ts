// POST /typing against the development data: Denmark (1) has subscribers 7, 9, 10, 11, 12, 14, 15;
// core team (6) is private (9, 10, 11); Old Verona (7) is archived; Polonius (13) is a guest
// subscribed to Verona (3) only; Former (18) is deactivated; Britain (10) is Lear's.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '../../../functions/typing/send';
import * as channelsStore from '../../../lib/store/channels';
import { documentClient, tableName } from '../../../lib/store/client';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue, type TestQueue } from '../../helpers/events';

const typing = (as: string, params: Record<string, unknown>) => call(handler, { method: 'POST', path: '/typing', as, params });

const ref = (user_id: number, email: string) => ({ user_id, email });
const HAMLET = ref(10, 'hamlet@zulip.com');
const IAGO = ref(11, 'iago@zulip.com');
const OTHELLO = ref(12, 'othello@zulip.com');
const STREAM_TYPING = { stream_typing_notifications: true };

/** Queues of Hamlet, Iago, Othello and Cordelia (not in Denmark), all with channel typing. */
const openQueues = async (): Promise<Record<string, TestQueue>> => ({
  hamlet: await openQueue('hamlet@zulip.com', { capabilities: STREAM_TYPING }),
  iago: await openQueue('iago@zulip.com', { capabilities: STREAM_TYPING }),
  othello: await openQueue('othello@zulip.com', { capabilities: STREAM_TYPING }),
  cordelia: await openQueue('cordelia@zulip.com', { capabilities: STREAM_TYPING }),
});

const drainAll = async (queues: Record<string, TestQueue>): Promise<Record<string, unknown[]>> =>
  Object.fromEntries(await Promise.all(Object.entries(queues).map(async ([name, q]) => [name, await q.drain()])));

describe('POST /typing to a direct-message conversation', () => {
  it('sends a typing event to every participant, the sender included and listed last', async () => {
    const queues = await openQueues();
    expect(expectSuccess(await typing('hamlet@zulip.com', { op: 'start', to: [11] }))).toEqual({ result: 'success', msg: '' });
    const event = { type: 'typing', op: 'start', message_type: 'direct', sender: HAMLET, recipients: [IAGO, HAMLET] };
    expect(await drainAll(queues)).toEqual({ hamlet: [event], iago: [event], othello: [], cordelia: [] });
  });

  it('keeps the order of a list that already names the sender, and the type "direct" when given', async () => {
    const queues = await openQueues();
    expectSuccess(await typing('hamlet@zulip.com', { op: 'stop', type: 'direct', to: [11, 10, 12] }));
    const event = { type: 'typing', op: 'stop', message_type: 'direct', sender: HAMLET, recipients: [IAGO, HAMLET, OTHELLO] };
    expect(await drainAll(queues)).toEqual({ hamlet: [event], iago: [event], othello: [event], cordelia: [] });
  });

  it('accepts a deactivated user in the list, and notifies only the active ones', async () => {
    const queues = await openQueues();
    expectSuccess(await typing('hamlet@zulip.com', { op: 'start', to: [18] }));
    const event = {
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: HAMLET,
      recipients: [ref(18, 'former@zulip.com'), HAMLET],
    };
    expect(await drainAll(queues)).toEqual({ hamlet: [event], iago: [], othello: [], cordelia: [] });
  });

  it('does not notify a participant who turned receives_typing_notifications off', async () => {
    await usersStore.updateSettings(2, 11, { receives_typing_notifications: false });
    const queues = await openQueues();
    expectSuccess(await typing('hamlet@zulip.com', { op: 'start', to: [11] }));
    const event = { type: 'typing', op: 'start', message_type: 'direct', sender: HAMLET, recipients: [IAGO, HAMLET] };
    expect(await drainAll(queues)).toEqual({ hamlet: [event], iago: [], othello: [], cordelia: [] });
    await usersStore.updateSettings(2, 11, { receives_typing_notifications: true });
  });

  it('answers with the disabled-setting message when the sender turned direct typing off, sending nothing', async () => {
    await usersStore.updateSettings(2, 10, { send_private_typing_notifications: false });
    const queues = await openQueues();
    expectError(await typing('hamlet@zulip.com', { op: 'start', to: [11] }), 'User has disabled typing notifications for direct messages');
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
    await usersStore.updateSettings(2, 10, { send_private_typing_notifications: true });
  });

  it.each([
    ['no op', { to: [11] }, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'],
    ['an unknown op', { op: 'begin', to: [11] }, 'Invalid op', 'BAD_REQUEST'],
    ['the retired type "private"', { op: 'start', type: 'private', to: [11] }, 'Invalid type', 'BAD_REQUEST'],
    ['a "to" that is not a list', { op: 'start', to: 11 }, 'to is not a list', 'BAD_REQUEST'],
    ['a "to" with an email', { op: 'start', to: [11, 'iago@zulip.com'] }, 'to[1] is not an integer', 'BAD_REQUEST'],
    ['no "to"', { op: 'start' }, "Missing 'to' argument", 'BAD_REQUEST'],
    ['an empty "to"', { op: 'start', to: [] }, "Empty 'to' list", 'BAD_REQUEST'],
    ['an unknown user id', { op: 'start', to: [11, 9999] }, 'Invalid user ID 9999', 'BAD_REQUEST'],
    ["another organization's user", { op: 'start', to: [20] }, 'Invalid user ID 20', 'BAD_REQUEST'],
  ])('refuses %s, sending nothing', async (_what, params, msg, code) => {
    const queues = await openQueues();
    expectError(await typing('hamlet@zulip.com', params), msg, 400, code);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
  });
});

describe('POST /typing to a channel topic', () => {
  it('sends a typing event to the subscribers with channel typing, the sender included', async () => {
    const queues = await openQueues();
    const withoutCapability = await openQueue('iago@zulip.com');
    expectSuccess(await typing('hamlet@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'lunch' }));
    const event = { type: 'typing', op: 'start', message_type: 'stream', sender: HAMLET, stream_id: 1, topic: 'lunch' };
    expect(await drainAll(queues)).toEqual({ hamlet: [event], iago: [event], othello: [event], cordelia: [] });
    expect(await withoutCapability.drain()).toEqual([]);
  });

  it('accepts the type "channel" and strips the topic', async () => {
    const queues = await openQueues();
    expectSuccess(await typing('hamlet@zulip.com', { op: 'stop', type: 'channel', stream_id: 1, topic: '  lunch  ' }));
    const event = { type: 'typing', op: 'stop', message_type: 'stream', sender: HAMLET, stream_id: 1, topic: 'lunch' };
    expect((await drainAll(queues)).iago).toEqual([event]);
  });

  it('reads "general chat" as the empty topic, shown as "general chat" to queues without empty_topic_name', async () => {
    const plain = await openQueue('iago@zulip.com', { capabilities: STREAM_TYPING });
    const modern = await openQueue('othello@zulip.com', { capabilities: { ...STREAM_TYPING, empty_topic_name: true } });
    expectSuccess(await typing('hamlet@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'general chat' }));
    const event = { type: 'typing', op: 'start', message_type: 'stream', sender: HAMLET, stream_id: 1 };
    expect(await modern.drain()).toEqual([{ ...event, topic: '' }]);
    expect(await plain.drain()).toEqual([{ ...event, topic: 'general chat' }]);
  });

  it('lets a guest type in a channel it is subscribed to', async () => {
    const queues = await openQueues();
    expectSuccess(await typing('polonius@zulip.com', { op: 'start', type: 'stream', stream_id: 3, topic: 'x' }));
    const event = { type: 'typing', op: 'start', message_type: 'stream', sender: ref(13, 'polonius@zulip.com'), stream_id: 3, topic: 'x' };
    expect((await drainAll(queues)).cordelia).toEqual([event]);
  });

  it('succeeds without any event in a channel of more than 100 subscribers', async () => {
    const denmark = (await channelsStore.getChannel(2, 1))!;
    await documentClient().send(
      new PutCommand({ TableName: tableName('main'), Item: channelsStore.buildChannelItem({ ...denmark, subscriberCount: 101 }) }),
    );
    const queues = await openQueues();
    expectSuccess(await typing('hamlet@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'lunch' }));
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
    await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: channelsStore.buildChannelItem(denmark) }));
  });

  it("refuses a sender outside the channel's can_send_message_group, sending nothing", async () => {
    const denmark = (await channelsStore.getChannel(2, 1))!;
    // Group 2 is role:administrators; Hamlet is a member.
    const restricted = { ...denmark, groupSettings: { ...denmark.groupSettings, can_send_message_group: 2 } };
    await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: channelsStore.buildChannelItem(restricted) }));
    const queues = await openQueues();
    expectError(
      await typing('hamlet@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'lunch' }),
      'You do not have permission to post in this channel.',
    );
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
    // An administrator of the organization is in that group.
    expectSuccess(await typing('iago@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'lunch' }));
    await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: channelsStore.buildChannelItem(denmark) }));
  });

  it('answers with the disabled-setting message when the sender turned channel typing off, sending nothing', async () => {
    await usersStore.updateSettings(2, 10, { send_stream_typing_notifications: false });
    const queues = await openQueues();
    expectError(
      await typing('hamlet@zulip.com', { op: 'start', type: 'stream', stream_id: 1, topic: 'lunch' }),
      'User has disabled typing notifications for channel messages',
    );
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
    await usersStore.updateSettings(2, 10, { send_stream_typing_notifications: true });
  });

  it.each([
    ['hamlet@zulip.com', 'no stream_id', { topic: 'lunch' }, "Missing 'stream_id' argument"],
    ['hamlet@zulip.com', 'a stream_id that is not JSON', { stream_id: 'Denmark', topic: 'lunch' }, 'stream_id is not valid JSON'],
    ['hamlet@zulip.com', 'no topic', { stream_id: 1 }, 'Missing topic'],
    ['hamlet@zulip.com', 'a channel that does not exist', { stream_id: 999, topic: 'lunch' }, 'Invalid channel ID'],
    ['hamlet@zulip.com', 'an archived channel', { stream_id: 7, topic: 'lunch' }, 'Invalid channel ID'],
    ['cordelia@zulip.com', 'a private channel one is not subscribed to', { stream_id: 6, topic: 'lunch' }, 'Invalid channel ID'],
    ['polonius@zulip.com', 'a public channel, for a guest not subscribed', { stream_id: 1, topic: 'lunch' }, 'Invalid channel ID'],
    ['hamlet@zulip.com', "another organization's channel", { stream_id: 10, topic: 'lunch' }, 'Invalid channel ID'],
  ])('refuses (as %s) %s, sending nothing', async (as, _what, params, msg) => {
    const queues = await openQueues();
    expectError(await typing(as, { op: 'start', type: 'stream', ...params }), msg);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
  });
});
