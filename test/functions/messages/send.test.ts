// POST /messages against the development data: Denmark (1) has subscribers 7, 9, 10, 11, 12, 14,
// 15; Scotland (2) 7, 11, 12, 14, 15; core team (6) is private (9, 10, 11); Old Verona (7) is
// archived; Rome (5) is web-public; Polonius (13) is a guest subscribed to Verona (3) only;
// Cordelia (8) is subscribed to Verona only; Former (18) is deactivated.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '../../../functions/messages/send';
import { handler as register } from '../../../functions/events/register';
import { handler as getOne } from '../../../functions/messages/get';
import { handler as updateSettings } from '../../../functions/settings/update';
import { gravatarUrl } from '../../../lib/models/avatar';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys, keys } from '../../../lib/store/keys';
import * as messagesStore from '../../../lib/store/messages';
import * as channelsStore from '../../../lib/store/channels';
import * as realmsStore from '../../../lib/store/realms';
import { RealmGroups } from '../../../lib/access/user-groups';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel, setSubscribed } from '../../helpers/channels';
import { openQueue, type TestQueue } from '../../helpers/events';
import { addLinkifier } from '../linkifiers/helpers';
import { handler as deleteLinkifier } from '../../../functions/linkifiers/delete';

const send = (as: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call(handler, { method: 'POST', path: '/messages', as, params, headers });

const removeLinkifier = async (id: number) =>
  expectSuccess(
    await call(deleteLinkifier, {
      method: 'DELETE',
      path: `/realm/filters/${id}`,
      routeKey: 'DELETE /realm/filters/{filter_id}',
      pathParameters: { filter_id: String(id) },
      as: 'iago@zulip.com',
    }),
  );

const counter = async (): Promise<number> =>
  Number(
    (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: keys.counter('message#2'), ConsistentRead: true })))
      .Item?.value,
  );

/** Queues of Hamlet, Iago, Othello and Cordelia (not in Denmark or Scotland). */
const openQueues = async (params: Record<string, unknown> = {}): Promise<Record<string, TestQueue>> => ({
  hamlet: await openQueue('hamlet@zulip.com', { params }),
  iago: await openQueue('iago@zulip.com', { params }),
  othello: await openQueue('othello@zulip.com', { params }),
  cordelia: await openQueue('cordelia@zulip.com', { params }),
});

const drainAll = async (queues: Record<string, TestQueue>): Promise<Record<string, Record<string, any>[]>> =>
  Object.fromEntries(await Promise.all(Object.entries(queues).map(async ([name, q]) => [name, await q.drain()])));

/** Asserts an error with nothing written: no id allocated, no event on any queue. */
const expectRefused = async (
  as: string,
  params: Record<string, unknown>,
  msg: string,
  code = 'BAD_REQUEST',
  extra: Record<string, unknown> = {},
) => {
  const queues = await openQueues();
  const before = await counter();
  const result = await send(as, params);
  expectError(result, msg, 400, code);
  expect(result.body).toEqual({ result: 'error', msg, code, ...extra });
  expect(await counter()).toBe(before);
  expect(await drainAll(queues)).toEqual({ hamlet: [], iago: [], othello: [], cordelia: [] });
};

const DENMARK = { type: 'stream', to: 1, topic: 'castle' };

describe('POST /messages to a channel', () => {
  it('answers the new id and sends each subscriber one message event with its own flags', async () => {
    const queues = await openQueues();
    const body = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'Hello @**Iago**' }));
    // Hamlet starts the topic, so he follows it (upstream's default automatically_follow_topics_policy).
    expect(body).toEqual({ result: 'success', msg: '', id: body.id, automatic_new_visibility_policy: 3 });
    expect(body.id).toBeGreaterThan(15);
    const events = await drainAll(queues);
    const message = {
      id: body.id,
      sender_id: 10,
      sender_full_name: 'King Hamlet',
      sender_email: 'hamlet@zulip.com',
      sender_realm_str: 'zulip',
      avatar_url: null,
      content: 'Hello @**Iago**',
      content_type: 'text/x-markdown',
      client: 'Unspecified',
      recipient_id: 1,
      subject: 'castle',
      topic_links: [],
      timestamp: expect.any(Number),
      is_me_message: false,
      reactions: [],
      submessages: [],
      type: 'stream',
      display_recipient: 'Denmark',
      stream_id: 1,
    };
    // Starting the topic makes Hamlet follow it, and the mention makes Iago follow it, before the message.
    const followed = (mutedTopics: unknown[]) => [
      { type: 'muted_topics', muted_topics: mutedTopics },
      { type: 'user_topic', stream_id: 1, topic_name: 'castle', last_updated: expect.any(Number), visibility_policy: 3 },
    ];
    expect(events).toEqual({
      hamlet: [...followed([]), { type: 'message', message, flags: [] }],
      iago: [...followed([]), { type: 'message', message, flags: ['mentioned'] }],
      othello: [{ type: 'message', message, flags: [] }],
      cordelia: [],
    });
  });

  it('renders the content for queues registered with apply_markdown and shows avatars without client_gravatar', async () => {
    const queue = await openQueue('iago@zulip.com', { params: { apply_markdown: true, client_gravatar: false } });
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'Hello @**Iago**' }));
    const [event] = await queue.drain();
    expect(event!.message.content).toBe('<p>Hello <span class="user-mention" data-user-id="11">@Iago</span></p>');
    expect(event!.message.content_type).toBe('text/html');
    expect(event!.message.avatar_url).toBe(gravatarUrl('hamlet@zulip.com'));
  });

  it("renders emoji by upstream's names, and emoticons only for a sender who turned translate_emoticons on", async () => {
    const queue = await openQueue('iago@zulip.com', { params: { apply_markdown: true } });
    expectSuccess(await send('othello@zulip.com', { ...DENMARK, content: ':thumbs_up: :)' }));
    expectSuccess(
      await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: { translate_emoticons: true } }),
    );
    expectSuccess(await send('othello@zulip.com', { ...DENMARK, content: ':thumbs_up: :)' }));
    const thumbs = '<span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span>';
    const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';
    expect((await queue.drain()).filter((e) => e.type === 'message').map((e) => e.message.content)).toEqual([
      `<p>${thumbs} :)</p>`,
      `<p>${thumbs} ${smile}</p>`,
    ]);
    // Back to the default, for the tests after this one.
    expectSuccess(
      await call(updateSettings, { method: 'PATCH', path: '/settings', as: 'othello@zulip.com', params: { translate_emoticons: false } }),
    );
  });

  it.each([
    ['a raw name', 'denmark'],
    ['a JSON string', '"Denmark"'],
    ['a JSON list of one name', '["Denmark"]'],
    ['a JSON list of one id', '[1]'],
  ])('accepts `to` as %s', async (_, to) => {
    const queue = await openQueue('iago@zulip.com');
    expectSuccess(await send('hamlet@zulip.com', { type: 'channel', to, topic: 'castle', content: 'hi' }));
    expect((await queue.drain()).map((e) => e.message.stream_id)).toEqual([1]);
  });

  it('accepts the legacy `subject` for the topic', async () => {
    const queue = await openQueue('iago@zulip.com');
    expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 1, subject: 'old style', content: 'hi' }));
    expect((await queue.drain())[0]!.message.subject).toBe('old style');
  });

  it('stores "general chat" and "(no topic)" as the empty topic, shown as "general chat" without the capability', async () => {
    const plain = await openQueue('iago@zulip.com');
    const capable = await openQueue('iago@zulip.com', { capabilities: { empty_topic_name: true } });
    expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 1, topic: ' (no topic) ', content: 'hi' }));
    expect((await plain.drain())[0]!.message.subject).toBe('general chat');
    expect((await capable.drain())[0]!.message.subject).toBe('');
  });

  // RE2 matching is linear in the text; a backtracking engine takes time doubling with each 'a'
  // (1.2 s at 27, past the function's timeout at about 32).
  it('sends and renders 10,000 a after an administrator saved the linkifier (?P<x>(a+)+b)', async () => {
    const saved = expectSuccess(await addLinkifier('iago@zulip.com', '(?P<x>(a+)+b)', 'https://x.example/{x}'));
    try {
      const queue = await openQueue('iago@zulip.com', { params: { apply_markdown: true } });
      const content = 'a'.repeat(10000);
      expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content }));
      expect((await queue.drain()).map((e) => e.message.content)).toEqual([`<p>${content}</p>`]);
    } finally {
      await removeLinkifier(saved.id as number);
    }
  });

  it('truncates a long topic to 60 characters and long content to 10000', async () => {
    const body = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, topic: 'x'.repeat(70), content: 'y'.repeat(10050) }));
    const [stored] = await messagesStore.getMessagesByIds(2, [body.id]);
    expect(stored!.topic).toBe(`${'x'.repeat(57)}...`);
    expect(stored!.content).toBe(`${'y'.repeat(9980)}\n[message truncated]`);
  });

  it('marks the message read for its sender when read_by_sender is true, and by default for a mobile client', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'a', read_by_sender: true }));
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'b' }, { 'user-agent': 'ZulipMobile/27.1 (Android 14)' }));
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'c' }, { 'user-agent': 'ZulipPython/0.9.0' }));
    const events = await queue.drain();
    expect(events.map((e) => [e.message.client, e.flags])).toEqual([
      ['Unspecified', ['read']],
      ['ZulipMobile', ['read']],
      ['ZulipPython', []],
    ]);
  });

  it('gives every recipient wildcard_mentioned for @**all** in a channel of at most 15 subscribers', async () => {
    const queues = await openQueues();
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: '@**all** dinner' }));
    const events = await drainAll(queues);
    expect([events.hamlet, events.iago, events.othello].map((e) => e[0]!.flags)).toEqual([
      ['wildcard_mentioned'],
      ['wildcard_mentioned'],
      ['wildcard_mentioned'],
    ]);
  });

  it("puts a mentioned recipient's row in its mentioned index", async () => {
    const body = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'see @**Othello, the Moor of Venice**' }));
    const row = (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: entityKeys.userMessage(12, body.id) })))
      .Item;
    expect(row).toMatchObject({ gsi4pk: 'MENTIONED#12', flags: ['mentioned'] });
  });

  it('lets a non-subscriber post to a public channel without getting a row or an event', async () => {
    const queues = await openQueues();
    const body = expectSuccess(await send('cordelia@zulip.com', { ...DENMARK, content: 'from outside' }));
    const events = await drainAll(queues);
    expect(events.cordelia).toEqual([]);
    expect(events.iago).toHaveLength(1);
    expect(await messagesStore.getUserMessagesByIds(8, [body.id])).toEqual([]);
  });

  it("links the topic with the organization's linkifiers in the events and in GET /messages", async () => {
    const queues = await openQueues();
    const topic = 'zulip-mobile#123 and #D45';
    const body = expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 1, topic, content: 'linked' }));
    const links = [
      { text: 'zulip-mobile#123', url: 'https://github.com/zulip/zulip-mobile/pull/123' },
      { text: '#D45', url: 'https://github.com/zulip/zulip-desktop/pull/45' },
    ];
    expect((await drainAll(queues)).iago.map((e) => e.message.topic_links)).toEqual([links]);
    const fetched = expectSuccess(
      await call(getOne, {
        method: 'GET',
        path: `/messages/${body.id}`,
        as: 'iago@zulip.com',
        pathParameters: { message_id: String(body.id) },
      }),
    );
    expect(fetched.message.topic_links).toEqual(links);
  });

  it('gives a deactivated subscriber no row, and counts only active subscribers as recipients', async () => {
    await setSubscribed(2, 18, 2, true);
    try {
      const body = expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 2, topic: 'lochs', content: 'to the living' }));
      expect(await messagesStore.getUserMessagesByIds(18, [body.id])).toEqual([]);
      expect((await messagesStore.getUserMessagesByIds(12, [body.id])).map((r) => r.userId)).toEqual([12]);
      expect(await channelsStore.listSubscriberIdsOfChannel(2)).toEqual([7, 11, 12, 14, 15]);
    } finally {
      await setSubscribed(2, 18, 2, false);
    }
  });

  it("gives the local id only to the sending client's own queue", async () => {
    const mine = await openQueue('hamlet@zulip.com');
    const other = await openQueue('hamlet@zulip.com');
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'echo', queue_id: mine.queueId, local_id: '17.01' }));
    expect((await mine.drain())[0]!.local_message_id).toBe('17.01');
    expect((await other.drain())[0]).not.toHaveProperty('local_message_id');
  });

  it('delivers only matching messages to a queue registered with a narrow', async () => {
    const queue = await openQueue('iago@zulip.com', { params: { narrow: [['channel', 'Scotland']] } });
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'not for the narrow' }));
    expectSuccess(await send('othello@zulip.com', { type: 'stream', to: 2, topic: 'lochs', content: 'for the narrow' }));
    expect((await queue.drain()).map((e) => e.message.content)).toEqual(['for the narrow']);
  });

  it('delivers public-channel messages to all_public_streams queues, once, with flags [] for non-recipients', async () => {
    const cordelia = await openQueue('cordelia@zulip.com', { params: { all_public_streams: true } });
    const iago = await openQueue('iago@zulip.com', { params: { all_public_streams: true } });
    expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'for @**Iago**' }));
    expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 6, topic: 'plans', content: 'private' }));
    expect((await cordelia.drain()).map((e) => [e.message.content, e.flags])).toEqual([['for @**Iago**', []]]);
    expect((await iago.drain()).map((e) => [e.message.content, e.flags])).toEqual([
      ['for @**Iago**', ['mentioned']],
      ['private', []],
    ]);
  });
});

describe('POST /messages refuses, writing nothing and sending no event', () => {
  it.each([
    [{ type: 'stream', to: 1, topic: 'x' }, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' }],
    [{ content: 'hi', to: 1, topic: 'x' }, "Missing 'type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'type' }],
    [{ type: 'broadcast', to: 1, topic: 'x', content: 'hi' }, 'Invalid type', 'BAD_REQUEST', {}],
    [
      { type: 'stream', to: 1, topic: 'x', subject: 'y', content: 'hi' },
      "Can't decide between 'topic' and 'subject' arguments",
      'REQUEST_CONFUSING_VAR',
      {},
    ],
    [{ type: 'stream', topic: 'x', content: 'hi' }, 'Missing channel', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, content: 'hi' }, 'Missing topic', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: '["Denmark", "Scotland"]', topic: 'x', content: 'hi' }, 'Expected exactly one channel', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: '{"a": 1}', topic: 'x', content: 'hi' }, 'Invalid data type for channel', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'a\u0001b', content: 'hi' }, 'Invalid character in topic, at position 2!', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'x', content: '  \n ' }, 'Message must not be empty', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'x', content: 'a\u0000b' }, 'Message must not contain null bytes', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: '" "', topic: 'x', content: 'hi' }, "Channel name can't be empty.", 'BAD_REQUEST', {}],
    [
      { type: 'stream', to: 'Nowhere<&>', topic: 'x', content: 'hi' },
      "Channel 'Nowhere&lt;&amp;&gt;' does not exist",
      'STREAM_DOES_NOT_EXIST',
      { stream: 'Nowhere&lt;&amp;&gt;' },
    ],
    [
      { type: 'stream', to: 999, topic: 'x', content: 'hi' },
      "Channel with ID '999' does not exist",
      'STREAM_DOES_NOT_EXIST',
      { stream_id: 999 },
    ],
    [
      { type: 'stream', to: 10, topic: 'x', content: 'hi' },
      "Channel with ID '10' does not exist",
      'STREAM_DOES_NOT_EXIST',
      { stream_id: 10 },
    ],
    [{ type: 'stream', to: 7, topic: 'x', content: 'hi' }, "Not authorized to send to channel 'Old Verona'", 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 6, topic: 'x', content: 'hi' }, "Not authorized to send to channel 'core team'", 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'x', content: 'hi', sender: 'iago@zulip.com' }, 'Invalid mirrored message', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'x', content: 'hi', forged: 'true' }, 'User not authorized for this query', 'BAD_REQUEST', {}],
    [{ type: 'stream', to: 1, topic: 'x', content: 'hi', read_by_sender: 'yes' }, 'read_by_sender is not valid JSON', 'BAD_REQUEST', {}],
  ])('%j: %s', async (params, msg, code, extra) => {
    await expectRefused('cordelia@zulip.com', params, msg, code, extra);
  });

  it('refuses a guest in a public channel it is not subscribed to', async () => {
    await expectRefused('polonius@zulip.com', { ...DENMARK, content: 'hi' }, "Not authorized to send to channel 'Denmark'");
  });

  it('refuses a channel whose can_send_message_group the sender is not in', async () => {
    const original = (await channelsStore.getChannel(2, 2))!.groupSettings.can_send_message_group!;
    const nobody = (await RealmGroups.load(2)).systemGroup('role:nobody').id;
    await changeChannel(2, 2, { groupSettings: { can_send_message_group: nobody } });
    await expectRefused(
      'othello@zulip.com',
      { type: 'stream', to: 2, topic: 'x', content: 'hi' },
      'You do not have permission to post in this channel.',
    );
    await changeChannel(2, 2, { groupSettings: { can_send_message_group: original } });
  });

  it('refuses the empty topic where the channel disables it, with the display name', async () => {
    await changeChannel(2, 4, { topicsPolicy: 'disable_empty_topic' });
    await expectRefused(
      'prospero@zulip.com',
      { type: 'stream', to: 4, topic: '', content: 'hi' },
      'Sending messages to the general chat is not allowed in this channel.',
      'BAD_REQUEST',
      {
        empty_topic_display_name: 'general chat',
      },
    );
    await changeChannel(2, 4, { topicsPolicy: 'inherit' });
  });
});

describe('POST /messages to a direct-message conversation', () => {
  it('sends the participants one event each, with the other participant as recipient_id', async () => {
    const queues = await openQueues();
    const body = expectSuccess(await send('hamlet@zulip.com', { type: 'direct', to: [11], content: 'psst' }));
    const events = await drainAll(queues);
    const display = [
      { id: 10, email: 'hamlet@zulip.com', full_name: 'King Hamlet', is_mirror_dummy: false },
      { id: 11, email: 'iago@zulip.com', full_name: 'Iago', is_mirror_dummy: false },
    ];
    expect(
      events.hamlet.map((e) => [
        e.message.id,
        e.message.type,
        e.message.recipient_id,
        e.message.display_recipient,
        e.message.subject,
        e.flags,
      ]),
    ).toEqual([[body.id, 'private', 11, display, '', []]]);
    expect(events.iago.map((e) => [e.message.recipient_id, e.flags])).toEqual([[10, []]]);
    expect(events.iago[0]!.message).not.toHaveProperty('stream_id');
    expect(events.othello).toEqual([]);
    expect(events.cordelia).toEqual([]);
  });

  it.each([
    ['a list of emails', '["iago@zulip.com", "OTHELLO@zulip.com"]'],
    ['a comma-separated string', 'iago@zulip.com, othello@zulip.com'],
    ['a list of ids', '[11, 12, 11]'],
  ])('accepts `to` as %s, for a group conversation sorted by id', async (_, to) => {
    const queues = await openQueues();
    expectSuccess(await send('hamlet@zulip.com', { type: 'private', to, content: 'group' }));
    const events = await drainAll(queues);
    expect(events.othello[0]!.message.display_recipient.map((u: { id: number }) => u.id)).toEqual([10, 11, 12]);
    expect(events.cordelia).toEqual([]);
  });

  it('sends a message to oneself to oneself only', async () => {
    const queues = await openQueues();
    expectSuccess(await send('hamlet@zulip.com', { type: 'direct', to: [10], content: 'note' }));
    const events = await drainAll(queues);
    expect(events.hamlet.map((e) => [e.message.recipient_id, e.message.display_recipient.length])).toEqual([[10, 1]]);
    expect(events.iago).toEqual([]);
  });

  it.each([
    [{ type: 'direct', content: 'hi' }, 'Message must have recipients'],
    [{ type: 'direct', to: '[]', content: 'hi' }, 'Message must have recipients'],
    [{ type: 'direct', to: '9', content: 'hi' }, 'Invalid data type for recipients'],
    [{ type: 'direct', to: '[11, "iago@zulip.com"]', content: 'hi' }, 'Recipient lists may contain emails or user IDs, but not both.'],
    [{ type: 'direct', to: '[{}]', content: 'hi' }, 'Invalid data type for recipients'],
    [{ type: 'direct', to: '["nobody@zulip.com"]', content: 'hi' }, "Invalid email 'nobody@zulip.com'"],
    [{ type: 'direct', to: '[999]', content: 'hi' }, 'Invalid user ID 999'],
    [{ type: 'direct', to: '[20]', content: 'hi' }, 'Invalid user ID 20'],
    [{ type: 'direct', to: '[999]', content: '' }, 'Invalid user ID 999'],
    [{ type: 'direct', to: '[11]', content: '' }, 'Message must not be empty'],
    [{ type: 'direct', to: '[18]', content: 'hi' }, "'former@zulip.com' is no longer using Zulip."],
    [{ type: 'direct', to: '["former@zulip.com"]', content: 'hi' }, "'former@zulip.com' is no longer using Zulip."],
  ])('%j: %s', async (params, msg) => {
    await expectRefused('hamlet@zulip.com', params, msg);
  });

  it('refuses direct messages when the organization disables them', async () => {
    const realm = (await realmsStore.get(2))!;
    const nobody = (await RealmGroups.load(2)).systemGroup('role:nobody').id;
    const setPermission = (value: unknown) =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: keys.realm(2),
          UpdateExpression: 'SET groupSettings = :v',
          ExpressionAttributeValues: { ':v': { ...realm.groupSettings, direct_message_permission_group: value } },
        }),
      );
    await setPermission(nobody);
    try {
      await expectRefused(
        'hamlet@zulip.com',
        { type: 'direct', to: [11], content: 'hi' },
        'Direct messages are disabled in this organization.',
      );
    } finally {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: keys.realm(2),
          UpdateExpression: 'SET groupSettings = :v',
          ExpressionAttributeValues: { ':v': realm.groupSettings },
        }),
      );
    }
  });
});

describe('register after a send', () => {
  const snapshot = async (email: string) =>
    expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: email,
        params: { fetch_event_types: ['message', 'update_message_flags', 'recent_private_conversations'] },
      }),
    );

  it('equals the previous snapshot plus the sent messages', async () => {
    const before = await snapshot('iago@zulip.com');
    const dm = expectSuccess(await send('hamlet@zulip.com', { type: 'direct', to: [11], content: 'unread dm' })).id;
    const channel = expectSuccess(await send('othello@zulip.com', { type: 'stream', to: 1, topic: 'lochs', content: 'hi @**Iago**' })).id;
    const after = await snapshot('iago@zulip.com');
    expect(after.max_message_id).toBe(channel);
    expect(after.unread_msgs.count).toBe(before.unread_msgs.count + 2);
    const dmEntry = (s: any) => s.unread_msgs.pms.find((p: any) => p.other_user_id === 10);
    expect(dmEntry(after).unread_message_ids).toEqual([...(dmEntry(before)?.unread_message_ids ?? []), dm]);
    expect(after.unread_msgs.mentions).toEqual([...before.unread_msgs.mentions, channel].sort((a: number, b: number) => a - b));
    const lochs = after.unread_msgs.streams.find((s: any) => s.stream_id === 1 && s.topic === 'lochs');
    expect(lochs.unread_message_ids).toContain(channel);
    expect(after.recent_private_conversations[0]).toEqual({ user_ids: [10], max_message_id: dm });
  });
});
