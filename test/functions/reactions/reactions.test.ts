// POST and DELETE /messages/{message_id}/reactions, after upstream's test_reactions.py, against the
// development data: Denmark (1) is public with subscribers 7, 9, 10, 11, 12, 14, 15; core team (6)
// is private with protected history (9, 10, 11); Old Verona (7) is archived; Cordelia (8) is not
// in Denmark; Polonius (13) is a guest; message 2 is a direct message from Cordelia to Iago (11),
// message 13 one of Othello to Hamlet and Iago;
// message 15 is of another organization. Each test reacts to its own message.
import { handler as register } from '../../../functions/events/register';
import { handler as add } from '../../../functions/reactions/add';
import { handler as remove } from '../../../functions/reactions/remove';
import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { apiReactions } from '../../../lib/models/reaction';
import { batchPut } from '../../../lib/store/common';
import * as messagesStore from '../../../lib/store/messages';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel, putChannelMessage, setSubscribed, whileUnsubscribed } from '../../helpers/channels';
import { drainQueues, openQueue, openQueuesOf, type TestQueue } from '../../helpers/events';

const DENMARK_SUBSCRIBERS = [7, 9, 10, 11, 12, 14, 15];
const CORE_TEAM = 6;
const OLD_VERONA = 7;

let nextId = 1000;
/** A new message in a channel (Denmark unless said), received by `receivers` (its subscribers unless said). */
const newMessage = async (streamId = 1, receivers = DENMARK_SUBSCRIBERS): Promise<number> => {
  const id = (nextId += 1);
  await putChannelMessage(
    { id, realmId: 2, senderId: 10, streamId, topic: 'reactions', content: 'react to me', dateSent: 1_700_000_000 },
    receivers,
  );
  return id;
};

const react = (as: string, messageId: number, params: Record<string, unknown>) =>
  call(add, { method: 'POST', path: `/messages/${messageId}/reactions`, pathParameters: { message_id: String(messageId) }, as, params });
const unreact = (as: string, messageId: number, params: Record<string, unknown>) =>
  call(remove, {
    method: 'DELETE',
    path: `/messages/${messageId}/reactions`,
    pathParameters: { message_id: String(messageId) },
    as,
    params,
  });

const reactionsOf = async (messageId: number) => apiReactions((await messagesStore.getMessage(2, messageId))?.reactions);

const OCTOPUS = { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' };
const event = (op: 'add' | 'remove', userId: number, messageId: number, emoji = OCTOPUS) => ({
  type: 'reaction',
  op,
  user_id: userId,
  message_id: messageId,
  ...emoji,
});

/** Queues of Hamlet (10), Iago (11), Othello (12), Cordelia (8) and Desdemona (9). */
const openQueues = async (): Promise<Record<string, TestQueue>> => ({
  hamlet: await openQueue('hamlet@zulip.com'),
  iago: await openQueue('iago@zulip.com'),
  othello: await openQueue('othello@zulip.com'),
  cordelia: await openQueue('cordelia@zulip.com'),
  desdemona: await openQueue('desdemona@zulip.com'),
});
const drainAll = async (queues: Record<string, TestQueue>): Promise<Record<string, unknown[]>> =>
  Object.fromEntries(await Promise.all(Object.entries(queues).map(async ([name, q]) => [name, await q.drain()])));

describe('POST /messages/{message_id}/reactions', () => {
  it('adds a reaction named by its name alone and tells every subscriber of the public channel, not others', async () => {
    const id = await newMessage();
    const queues = await openQueues();
    expect(expectSuccess(await react('hamlet@zulip.com', id, { emoji_name: 'octopus' }))).toEqual({ result: 'success', msg: '' });
    const e = event('add', 10, id);
    expect(await drainAll(queues)).toEqual({ hamlet: [e], iago: [e], othello: [e], cordelia: [], desdemona: [e] });
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 10 }]);
  });

  it.each([
    ['thumbs_up', '1f44d'],
    ['+1', '1f44d'],
    ['like', '1f44d'],
    ['smile', '1f642'],
    ['heart', '2764'],
    ['octopus', '1f419'],
    ['working_on_it', '1f6e0'],
  ])("adds a reaction by upstream's name %s alone, as %s", async (name, code) => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, { emoji_name: name }));
    expect(await reactionsOf(id)).toEqual([{ emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji', user_id: 10 }]);
  });

  it("adds a reaction by upstream's alias with its code, as the web client sends it", async () => {
    const id = await newMessage();
    const thumbs = { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    expectSuccess(await react('hamlet@zulip.com', id, thumbs));
    expect(await reactionsOf(id)).toEqual([{ ...thumbs, user_id: 10 }]);
  });

  it('lists the reactions of a message in the order they were added', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, { emoji_name: 'tada' }));
    expectSuccess(await react('iago@zulip.com', id, OCTOPUS));
    expectSuccess(await react('hamlet@zulip.com', id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
    expect(await reactionsOf(id)).toEqual([
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 10 },
      { ...OCTOPUS, user_id: 11 },
      { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji', user_id: 10 },
    ]);
  });

  it("takes the name of another user's reaction with the same emoji code (a vote for it)", async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, { emoji_name: '+1' }));
    const queues = await openQueues();
    expectSuccess(await react('iago@zulip.com', id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
    const thumbs = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    expect((await drainAll(queues)).iago).toEqual([event('add', 11, id, thumbs)]);
    expect(await reactionsOf(id)).toEqual([
      { ...thumbs, user_id: 10 },
      { ...thumbs, user_id: 11 },
    ]);
  });

  it('lets a non-subscriber react to a public channel message, giving them a historical row and the event', async () => {
    const id = await newMessage();
    const queues = await openQueues();
    expectSuccess(await react('cordelia@zulip.com', id, OCTOPUS));
    const e = event('add', 8, id);
    expect(await drainAll(queues)).toEqual({ hamlet: [e], iago: [e], othello: [e], cordelia: [e], desdemona: [e] });
    expect((await messagesStore.getUserMessage(8, id))?.flags).toEqual(['read', 'historical']);
    // Having a row now, Cordelia also hears of the others' reactions to it.
    expectSuccess(await react('iago@zulip.com', id, OCTOPUS));
    expect((await drainAll(queues)).cordelia).toEqual([event('add', 11, id)]);
  });

  it("leaves the reacting user's register state as it was but for max_message_id, which counts the new historical row as upstream's does", async () => {
    const id = await newMessage();
    const state = async () => {
      const body = expectSuccess(
        await call(register, {
          method: 'POST',
          path: '/register',
          as: 'cordelia@zulip.com',
          params: {
            fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations', 'subscription'],
          },
        }),
      );
      const { queue_id: _q, last_event_id: _l, ...rest } = body;
      return rest;
    };
    const before = await state();
    expectSuccess(await react('cordelia@zulip.com', id, OCTOPUS));
    expect(await state()).toEqual({ ...before, max_message_id: id });
  });

  it('tells only the participants of a direct message', async () => {
    const queues = await openQueues();
    expectSuccess(await react('iago@zulip.com', 2, OCTOPUS));
    const e = event('add', 11, 2);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [e], othello: [], cordelia: [e], desdemona: [] });
  });

  it('tells only the subscribers who received a message of a channel with protected history', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10]);
    const queues = await openQueues();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainAll(queues)).toEqual({ hamlet: [e], iago: [], othello: [], cordelia: [], desdemona: [e] });
  });

  it('lets two users react with the same emoji at once, both landing', async () => {
    const id = await newMessage();
    const results = await Promise.all([react('hamlet@zulip.com', id, OCTOPUS), react('iago@zulip.com', id, OCTOPUS)]);
    results.forEach(expectSuccess);
    expect((await reactionsOf(id)).map((r) => r.user_id).sort()).toEqual([10, 11]);
  });

  it('lets two users add different first reactions at once, both landing', async () => {
    const id = await newMessage();
    const results = await Promise.all([react('hamlet@zulip.com', id, { emoji_name: 'tada' }), react('iago@zulip.com', id, OCTOPUS)]);
    results.forEach(expectSuccess);
    expect((await reactionsOf(id)).map((r) => [r.user_id, r.emoji_name]).sort()).toEqual([
      [10, 'tada'],
      [11, 'octopus'],
    ]);
  });

  it('adds the same reaction sent twice at once only once: the other is "Reaction already exists."', async () => {
    const id = await newMessage();
    const queues = await openQueues();
    const results = await Promise.all([react('hamlet@zulip.com', id, OCTOPUS), react('hamlet@zulip.com', id, OCTOPUS)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400]);
    expectError(
      results.find((r) => r.status === 400)!,
      'Reaction already exists.',
      400,
      'REACTION_ALREADY_EXISTS',
    );
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 10 }]);
    expect((await drainAll(queues)).iago).toEqual([event('add', 10, id)]);
  });

  it('refuses a reaction the user already has, changing nothing', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const queues = await openQueues();
    expectError(await react('hamlet@zulip.com', id, { emoji_name: 'octopus' }), 'Reaction already exists.', 400, 'REACTION_ALREADY_EXISTS');
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 10 }]);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [], desdemona: [] });
  });

  it.each([
    ['no emoji_name', 'hamlet', { emoji_code: '1f419' }, "Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING'],
    ['an unknown emoji name', 'hamlet', { emoji_name: 'no-such-emoji' }, "Emoji 'no-such-emoji' does not exist", 'BAD_REQUEST'],
    ['a name upstream does not have', 'hamlet', { emoji_name: 'thumbsup' }, "Emoji 'thumbsup' does not exist", 'BAD_REQUEST'],
    [
      'a name upstream does not have, with its code',
      'hamlet',
      { emoji_name: 'thumbsup', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
      'Invalid emoji name.',
      'BAD_REQUEST',
    ],
    [
      'an emoji upstream leaves out',
      'hamlet',
      { emoji_name: 'face_with_bags_under_eyes', emoji_code: '1fae9', reaction_type: 'unicode_emoji' },
      'Invalid emoji code.',
      'BAD_REQUEST',
    ],
    [
      'an unknown emoji code',
      'hamlet',
      { emoji_name: 'octopus', emoji_code: 'abcde', reaction_type: 'unicode_emoji' },
      'Invalid emoji code.',
      'BAD_REQUEST',
    ],
    [
      'a name that is not the code’s',
      'hamlet',
      { emoji_name: 'tada', emoji_code: '1f419', reaction_type: 'unicode_emoji' },
      'Invalid emoji name.',
      'BAD_REQUEST',
    ],
    [
      'a custom emoji (the organization has none)',
      'hamlet',
      { emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' },
      'Invalid custom emoji.',
      'BAD_REQUEST',
    ],
    [
      'an unknown Zulip extra emoji',
      'hamlet',
      { emoji_name: 'zulip', emoji_code: 'zulipx', reaction_type: 'zulip_extra_emoji' },
      'Invalid emoji code.',
      'BAD_REQUEST',
    ],
    [
      'an unknown reaction type',
      'hamlet',
      { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'fancy_emoji' },
      'Invalid emoji type.',
      'BAD_REQUEST',
    ],
    ['a guest in a public channel they are not in', 'polonius', OCTOPUS, 'Invalid message(s)', 'BAD_REQUEST'],
  ])('refuses %s, changing nothing and sending nothing', async (_what, who, params, msg, code) => {
    const id = await newMessage();
    const queues = await openQueues();
    expectError(await react(`${who}@zulip.com`, id, params), msg, 400, code);
    expect(await reactionsOf(id)).toEqual([]);
    expect(await messagesStore.getUserMessage(13, id)).toBeUndefined();
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [], desdemona: [] });
  });

  it.each([
    ['a message that does not exist', 'hamlet', async () => 99999],
    ["another organization's message", 'hamlet', async () => 15],
    ['a direct message the user is not in', 'cordelia', async () => 13],
    ['a private channel message of a non-subscriber', 'othello', async () => newMessage(CORE_TEAM, [9, 10, 11])],
    ['a protected-history message a subscriber did not receive', 'iago', async () => newMessage(CORE_TEAM, [9, 10])],
    ['a message of an archived channel', 'hamlet', async () => newMessage(OLD_VERONA, [10])],
  ])('answers "Invalid message(s)" for %s, changing nothing', async (_what, who, messageOf) => {
    const id = await messageOf();
    const queues = await openQueues();
    expectError(await react(`${who}@zulip.com`, id, OCTOPUS), 'Invalid message(s)');
    expect(await reactionsOf(id)).toEqual([]);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [], desdemona: [] });
  });
});

describe('DELETE /messages/{message_id}/reactions', () => {
  it('removes a reaction named by its code and type, telling everyone who can see the message', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    expectSuccess(await react('iago@zulip.com', id, OCTOPUS));
    const queues = await openQueues();
    expect(expectSuccess(await unreact('hamlet@zulip.com', id, { emoji_code: '1f419', reaction_type: 'unicode_emoji' }))).toEqual({
      result: 'success',
      msg: '',
    });
    const e = event('remove', 10, id);
    expect(await drainAll(queues)).toEqual({ hamlet: [e], iago: [e], othello: [e], cordelia: [], desdemona: [e] });
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 11 }]);
  });

  it('removes a reaction named by its name alone, the type defaulting to unicode_emoji', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    expectSuccess(await unreact('hamlet@zulip.com', id, { emoji_name: 'octopus' }));
    expect(await reactionsOf(id)).toEqual([]);
  });

  it('removes a Zulip extra emoji reaction by its code and type', async () => {
    const id = await newMessage();
    const zulip = { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' };
    expectSuccess(await react('hamlet@zulip.com', id, zulip));
    const queues = await openQueues();
    expectSuccess(await unreact('hamlet@zulip.com', id, { emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
    expect((await drainAll(queues)).iago).toEqual([event('remove', 10, id, zulip)]);
    expect(await reactionsOf(id)).toEqual([]);
  });

  it('removes the same reaction sent twice at once only once: the other is "Reaction doesn\'t exist."', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const queues = await openQueues();
    const results = await Promise.all([unreact('hamlet@zulip.com', id, OCTOPUS), unreact('hamlet@zulip.com', id, OCTOPUS)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expectError(
      results.find((r) => r.status === 400)!,
      "Reaction doesn't exist.",
      400,
      'REACTION_DOES_NOT_EXIST',
    );
    expect((await drainAll(queues)).iago).toEqual([event('remove', 10, id)]);
  });

  it.each([
    ["another user's reaction", { emoji_name: 'octopus' }, "Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST'],
    [
      'a reaction of another type with the same code',
      { emoji_code: '1f419', reaction_type: 'realm_emoji' },
      "Reaction doesn't exist.",
      'REACTION_DOES_NOT_EXIST',
    ],
    ['neither a name nor a code', {}, 'At least one of the following arguments must be present: emoji_name, emoji_code', 'BAD_REQUEST'],
    ['an unknown emoji name', { emoji_name: 'no-such-emoji' }, "Emoji 'no-such-emoji' does not exist", 'BAD_REQUEST'],
  ])('refuses %s, changing nothing and sending nothing', async (_what, params, msg, code) => {
    const id = await newMessage();
    expectSuccess(await react('iago@zulip.com', id, OCTOPUS));
    const queues = await openQueues();
    expectError(await unreact('hamlet@zulip.com', id, params), msg, 400, code);
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 11 }]);
    expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [], desdemona: [] });
  });

  it('answers "Invalid message(s)" for a message the user cannot see, changing nothing', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10, 11]);
    expectSuccess(await react('iago@zulip.com', id, OCTOPUS));
    expectError(await unreact('othello@zulip.com', id, OCTOPUS), 'Invalid message(s)');
    expect(await reactionsOf(id)).toEqual([{ ...OCTOPUS, user_id: 11 }]);
  });
});

// Upstream's event_recipient_ids_for_action_on_messages: a public channel's message goes to its
// active subscribers and every non-guest with a row of it (the row query does not look at whether
// the user is active); a private channel with shared history to its active subscribers; one with
// protected history to the active subscribers who have a row.
describe('who is told of a reaction', () => {
  /** Runs `body` with the user deactivated (out of every subscriber list, as deactivation leaves them), then reactivates them. */
  const whileDeactivated = async (userId: number, channelId: number, body: () => Promise<void>) => {
    const user = (await usersStore.get(2, userId))!;
    await usersStore.put({ ...user, isActive: false });
    await setSubscribed(2, userId, channelId, true);
    try {
      await body();
    } finally {
      await usersStore.put(user);
      await setSubscribed(2, userId, channelId, true);
    }
  };
  /** Runs `body` with the core team channel's history shared with its subscribers. */
  const withSharedHistory = async (body: () => Promise<void>) => {
    await changeChannel(2, CORE_TEAM, { historyPublicToSubscribers: true });
    try {
      await body();
    } finally {
      await changeChannel(2, CORE_TEAM, { historyPublicToSubscribers: false });
    }
  };

  it('tells a former subscriber of a public channel who received the message', async () => {
    const id = await newMessage();
    await whileUnsubscribed(2, 12, 1, async () => {
      const queues = await openQueuesOf([8, 10, 12]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 10: [e], 12: [e] });
    });
  });

  it('tells a former subscriber of a public channel who received the message when a reaction is removed', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    await whileUnsubscribed(2, 12, 1, async () => {
      const queues = await openQueuesOf([8, 10, 12]);
      expectSuccess(await unreact('hamlet@zulip.com', id, OCTOPUS));
      const e = event('remove', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 10: [e], 12: [e] });
    });
  });

  it('tells a subscriber of a public channel who did not receive the message', async () => {
    const id = await newMessage(1, [7, 9, 10, 11, 14, 15]);
    const queues = await openQueuesOf([10, 12]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 10: [e], 12: [e] });
  });

  it('tells a non-subscriber who starred the public channel message (a historical row)', async () => {
    const id = await newMessage();
    expectSuccess(
      await call(updateFlags, {
        method: 'POST',
        path: '/messages/flags',
        as: 'cordelia@zulip.com',
        params: { messages: [id], op: 'add', flag: 'starred' },
      }),
    );
    const queues = await openQueuesOf([8, 10, 13]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 8: [e], 10: [e], 13: [] });
  });

  it('does not tell a guest who received the public channel message and is not subscribed', async () => {
    const id = await newMessage(1, [...DENMARK_SUBSCRIBERS, 13]);
    const queues = await openQueuesOf([10, 13]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    expect(await drainQueues(queues)).toEqual({ 10: [event('add', 10, id)], 13: [] });
  });

  it('tells a deactivated user who received the public channel message, as upstream reads the rows whether or not their holder is active', async () => {
    const id = await newMessage();
    const queues = await openQueuesOf([10, 14]);
    await whileDeactivated(14, 1, async () => {
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    });
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 10: [e], 14: [e] });
  });

  it('does not tell a subscriber of a channel with protected history who never received the message', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10]);
    const queues = await openQueuesOf([9, 10, 11]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 9: [e], 10: [e], 11: [] });
  });

  it('does not tell a former subscriber of a channel with protected history, though they received the message', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10, 11]);
    await whileUnsubscribed(2, 9, CORE_TEAM, async () => {
      const queues = await openQueuesOf([9, 10, 11]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
    });
  });

  it('tells only the subscribers with a row of a protected-history message stored before recipients records existed', async () => {
    const id = (nextId += 1);
    const message = {
      id,
      realmId: 2,
      senderId: 10,
      streamId: CORE_TEAM,
      topic: 'old',
      content: 'old',
      dateSent: 1_700_000_000,
      dmUserIds: [],
    };
    await batchPut('main', [
      messagesStore.buildMessageItem(message),
      ...[9, 10].map((u) => messagesStore.buildUserMessageItem(message, u, ['read'])),
    ]);
    expect(await messagesStore.getRowHolderRecord(2, id)).toEqual({ sent: undefined, later: [] });
    const queues = await openQueuesOf([9, 10, 11]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 9: [e], 10: [e], 11: [] });
  });

  it('tells a subscriber of a private channel with shared history who did not receive the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10]);
      const queues = await openQueuesOf([8, 9, 10, 11]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 9: [e], 10: [e], 11: [e] });
    });
  });

  it('does not tell a former subscriber of a private channel with shared history, though they received the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10, 11]);
      await whileUnsubscribed(2, 9, CORE_TEAM, async () => {
        const queues = await openQueuesOf([9, 10, 11]);
        expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
        const e = event('add', 10, id);
        expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
      });
    });
  });

  it('does not tell a deactivated subscriber of a private channel with shared history who received the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10, 11]);
      const queues = await openQueuesOf([9, 10, 11]);
      await whileDeactivated(9, CORE_TEAM, async () => {
        expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      });
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
    });
  });
});
