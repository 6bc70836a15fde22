// POST and DELETE /messages/{message_id}/reactions, after upstream's test_reactions.py, against the
// development data: Denmark (1) is public with subscribers 7, 9, 10, 11, 12, 14, 15; core team (6)
// is private with protected history (9, 10, 11); Old Verona (7) is archived; Cordelia (8) is not
// in Denmark; Polonius (13) is a guest; message 2 is a direct message from Cordelia to Iago (11),
// message 13 one of Othello to Hamlet and Iago;
// message 15 is of another organization. Each test reacts to its own message.
import { handler as register } from '../../../functions/events/register';
import { apiReactions } from '../../../lib/models/reaction';
import * as messagesStore from '../../../lib/store/messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue, type TestQueue } from '../../helpers/events';
import { CORE_TEAM, event, newMessage, OCTOPUS, react, unreact } from './helpers';

const OLD_VERONA = 7;

const reactionsOf = async (messageId: number) => apiReactions((await messagesStore.getMessage(2, messageId))?.reactions);

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
