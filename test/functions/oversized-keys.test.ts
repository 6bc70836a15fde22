// Issue 21 item 4: request text that becomes part of a DynamoDB key (a partition key holds at most
// 2048 bytes of UTF-8, a sort key 1024). Every route that puts a client string into a key, fed
// 3 KB, 100 KB and 2.4 KB of four-byte characters (1,200 UTF-16 units: a guard that counted
// characters would let it through), answers upstream's 4xx for that parameter, or, where upstream
// treats the text as a lookup of something that does not exist, exactly that answer; and leaves
// both tables as they were.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import * as usersStore from '../../lib/store/users';
import { handler as fetchApiKey } from '../../functions/auth/fetch-api-key';
import { handler as createUser } from '../../functions/users/create';
import { handler as updateUser } from '../../functions/users/update';
import { handler as getBotStorage } from '../../functions/bot-storage/get';
import { handler as removeBotStorage } from '../../functions/bot-storage/remove';
import { handler as getStreamId } from '../../functions/channels/get-id';
import { handler as subscribe } from '../../functions/channels/subscribe';
import { handler as unsubscribe } from '../../functions/channels/unsubscribe';
import { handler as devFetchApiKey } from '../../functions/dev/fetch-api-key';
import { handler as deleteQueue } from '../../functions/events/delete';
import { handler as getEvents } from '../../functions/events/get';
import { handler as listMessages } from '../../functions/messages/list';
import { handler as sendMessage } from '../../functions/messages/send';
import { handler as updateFlagsForNarrow } from '../../functions/messages/update-flags-narrow';
import { handler as userPresence } from '../../functions/presence/get-user';
import { handler as addReaction } from '../../functions/reactions/add';
import { handler as muteTopic } from '../../functions/topics/mute-topic';
import { handler as updateUserTopic } from '../../functions/topics/update-user-topic';
import { handler as serveUpload } from '../../functions/uploads/serve';
import { handler as serveTemporaryUpload } from '../../functions/uploads/serve-temporary';
import { handler as temporaryUploadUrl } from '../../functions/uploads/temporary-url';
import { handler as uploadFile } from '../../functions/uploads/upload';
import { handler as createUserGroup } from '../../functions/user-groups/create';
import { handler as updateUserGroup } from '../../functions/user-groups/update';
import { handler as getUser } from '../../functions/users/get';
import { handler as getOwnUser } from '../../functions/users/me';
import * as attachmentsStore from '../../lib/store/attachments';
import { documentClient, tableName } from '../../lib/store/client';
import * as messagesStore from '../../lib/store/messages';
import { basicAuth, buildEvent, call, expectError, expectSuccess, type ApiResult, type CallOptions } from '../helpers/api';

const HAMLET = 'hamlet@zulip.com';
const BOT = 'default-bot@zulip.com';

const TEXTS: [string, string][] = [
  ['3 KB', 'a'.repeat(3 * 1024)],
  ['100 KB', 'a'.repeat(100 * 1024)],
  ['2.4 KB of four-byte characters', '😀'.repeat(600)],
];

/** Every item of both tables, in key order: what a request must leave as it was. */
const snapshot = async (): Promise<unknown[]> => {
  const items: Record<string, unknown>[] = [];
  for (const table of ['main', 'events'] as const) {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(new ScanCommand({ TableName: tableName(table), ConsistentRead: true, ExclusiveStartKey }));
      items.push(...((page.Items ?? []) as Record<string, unknown>[]).map((item) => ({ table, ...item })));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
  const keyOf = (item: Record<string, unknown>) => `${String(item.table)} ${String(item.pk)} ${String(item.sk)}`;
  // A login attempt counts against its client address whatever its username (upstream's
  // api_by_ip): that record is the one write a refused login makes, by design.
  return items
    .filter((item) => !String(item.pk).startsWith('RATELIMIT#authenticate_by_ip#'))
    .sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
};

/** Calls a route whose path has parameters, filling the path from its template. */
const callPath = (
  handler: Parameters<typeof call>[0],
  template: string,
  pathParameters: Record<string, string>,
  opts: Partial<CallOptions>,
) =>
  call(handler, {
    method: 'GET',
    path: template.replace(/\{([a-z_]+)\+?\}/g, (_m, name: string) => pathParameters[name]),
    routeKey: `${opts.method ?? 'GET'} ${template}`,
    pathParameters,
    ...opts,
  });

/** A route fed the long text `t`, and what it must answer. */
type Case = { name: string; send: (t: string) => Promise<ApiResult>; expect: (result: ApiResult, t: string) => void };

const error =
  (msg: string | ((t: string) => string), status = 400, code = 'BAD_REQUEST') =>
  (result: ApiResult, t: string) =>
    expectError(result, typeof msg === 'string' ? msg : msg(t), status, code);

const email = (t: string) => `${t}@zulip.com`;
const narrowOn = (terms: { operator: string; operand: string }[]) => ({ narrow: terms, anchor: 'newest', num_before: 10, num_after: 0 });

const CASES: Case[] = [
  {
    name: 'POST /fetch_api_key with a long username (an email)',
    send: (t) => call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params: { username: email(t), password: 'x' } }),
    expect: error('Enter a valid email address.'),
  },
  {
    name: 'POST /fetch_api_key at a long subdomain',
    send: (t) =>
      call(fetchApiKey, {
        method: 'POST',
        path: '/fetch_api_key',
        headers: { host: `${t}.localhost:3000` },
        params: { username: HAMLET, password: 'x' },
      }),
    expect: error('Invalid subdomain', 404, 'NONEXISTENT_SUBDOMAIN'),
  },
  {
    name: 'POST /dev_fetch_api_key with a long username (an email)',
    send: (t) => call(devFetchApiKey, { method: 'POST', path: '/dev_fetch_api_key', params: { username: email(t) } }),
    expect: error('Enter a valid email address.'),
  },
  {
    name: 'an API request whose Basic credentials carry a long email',
    send: (t) => call(getOwnUser, { method: 'GET', path: '/users/me', authorization: basicAuth(email(t), 'a'.repeat(32)) }),
    expect: error('Invalid API key', 401, 'UNAUTHORIZED'),
  },
  {
    name: 'POST /users with a long email',
    send: (t) =>
      call(createUser, {
        method: 'POST',
        path: '/users',
        as: 'iago@zulip.com',
        params: { email: email(t), password: 'a-passphrase', full_name: 'Long Email' },
      }),
    expect: error('Bad name or username'),
  },
  {
    name: 'POST /users with a long full name (a key of the name index)',
    send: (t) =>
      call(createUser, {
        method: 'POST',
        path: '/users',
        as: 'iago@zulip.com',
        params: { email: 'long-name@zulip.com', password: 'a-passphrase', full_name: t },
      }),
    expect: error('Name too long!'),
  },
  {
    name: 'PATCH /users/{user_id} with a long full name (a key of the name index)',
    send: (t) =>
      callPath(
        updateUser,
        '/users/{user_id_or_email}',
        { user_id_or_email: '12' },
        { method: 'PATCH', as: 'iago@zulip.com', params: { full_name: t } },
      ),
    expect: error('Name too long!'),
  },
  {
    name: 'GET /users/{email} with a long email',
    send: (t) => callPath(getUser, '/users/{user_id_or_email}', { user_id_or_email: email(t) }, { as: HAMLET }),
    expect: error('No such user'),
  },
  {
    name: 'GET /users/{email}/presence with a long email',
    send: (t) => callPath(userPresence, '/users/{user_id_or_email}/presence', { user_id_or_email: email(t) }, { as: HAMLET }),
    expect: error('No such user'),
  },
  {
    name: 'POST /messages to a long email',
    send: (t) =>
      call(sendMessage, { method: 'POST', path: '/messages', as: HAMLET, params: { type: 'direct', to: [email(t)], content: 'hi' } }),
    expect: error((t) => `Invalid email '${email(t)}'`),
  },
  {
    name: 'POST /messages to a channel with a long name',
    send: (t) =>
      call(sendMessage, { method: 'POST', path: '/messages', as: HAMLET, params: { type: 'stream', to: t, topic: 'x', content: 'hi' } }),
    expect: error('Channel name too long (limit: 60 characters).'),
  },
  {
    name: 'POST /users/me/subscriptions with a long channel name',
    send: (t) => call(subscribe, { method: 'POST', path: '/users/me/subscriptions', as: HAMLET, params: { subscriptions: [{ name: t }] } }),
    expect: error('Channel name too long (limit: 60 characters).'),
  },
  {
    name: 'POST /users/me/subscriptions for a long principal email',
    send: (t) =>
      call(subscribe, {
        method: 'POST',
        path: '/users/me/subscriptions',
        as: 'iago@zulip.com',
        params: { subscriptions: [{ name: 'Verona' }], principals: [email(t)] },
      }),
    expect: error((t) => `User not authorized to execute queries on behalf of '${email(t)}'`, 403, 'UNAUTHORIZED_PRINCIPAL'),
  },
  {
    name: 'DELETE /users/me/subscriptions with a long channel name',
    send: (t) => call(unsubscribe, { method: 'DELETE', path: '/users/me/subscriptions', as: HAMLET, params: { subscriptions: [t] } }),
    expect: error((t) => `Channel '${t}' does not exist`, 400, 'STREAM_DOES_NOT_EXIST'),
  },
  {
    name: 'DELETE /users/me/subscriptions for a long principal email',
    send: (t) =>
      call(unsubscribe, {
        method: 'DELETE',
        path: '/users/me/subscriptions',
        as: 'iago@zulip.com',
        params: { subscriptions: ['Verona'], principals: [email(t)] },
      }),
    expect: error((t) => `User not authorized to execute queries on behalf of '${email(t)}'`, 403, 'UNAUTHORIZED_PRINCIPAL'),
  },
  {
    name: 'GET /get_stream_id with a long channel name',
    send: (t) => call(getStreamId, { method: 'GET', path: '/get_stream_id', as: HAMLET, params: { stream: t } }),
    expect: error((t) => `Invalid channel name '${t}'`),
  },
  {
    name: 'GET /messages narrowed to a long sender email',
    send: (t) =>
      call(listMessages, { method: 'GET', path: '/messages', as: HAMLET, params: narrowOn([{ operator: 'sender', operand: email(t) }]) }),
    expect: error((t) => `Invalid narrow operator: unknown user ${email(t)}`, 400, 'BAD_NARROW'),
  },
  {
    name: 'GET /messages narrowed to a direct message with a long email',
    send: (t) =>
      call(listMessages, { method: 'GET', path: '/messages', as: HAMLET, params: narrowOn([{ operator: 'dm', operand: email(t) }]) }),
    expect: error((t) => `Invalid narrow operator: unknown user in ${email(t)}`, 400, 'BAD_NARROW'),
  },
  {
    name: 'GET /messages narrowed to a channel with a long name',
    send: (t) =>
      call(listMessages, { method: 'GET', path: '/messages', as: HAMLET, params: narrowOn([{ operator: 'channel', operand: t }]) }),
    expect: error((t) => `Invalid narrow operator: unknown channel ${t}`, 400, 'BAD_NARROW'),
  },
  {
    name: 'POST /user_topics with a long topic',
    send: (t) =>
      call(updateUserTopic, { method: 'POST', path: '/user_topics', as: HAMLET, params: { stream_id: 3, topic: t, visibility_policy: 1 } }),
    expect: error('topic is too long (limit: 60 characters)'),
  },
  {
    name: 'PATCH /users/me/subscriptions/muted_topics in a channel with a long name',
    send: (t) =>
      call(muteTopic, {
        method: 'PATCH',
        path: '/users/me/subscriptions/muted_topics',
        as: HAMLET,
        params: { stream: t, topic: 'x', op: 'add' },
      }),
    expect: error((t) => `Invalid channel name '${t}'`),
  },
  {
    name: 'GET /events with a long queue_id',
    send: (t) => call(getEvents, { method: 'GET', path: '/events', as: HAMLET, params: { queue_id: t, last_event_id: -1 } }),
    expect: (result, t) => {
      expectError(result, `Bad event queue ID: ${t}`, 400, 'BAD_EVENT_QUEUE_ID');
      expect(result.body.queue_id).toBe(t);
    },
  },
  {
    name: 'DELETE /events with a long queue_id',
    send: (t) => call(deleteQueue, { method: 'DELETE', path: '/events', as: HAMLET, params: { queue_id: t } }),
    expect: error((t) => `Bad event queue ID: ${t}`, 400, 'BAD_EVENT_QUEUE_ID'),
  },
  {
    name: 'GET /bot_storage with a long key',
    send: (t) => call(getBotStorage, { method: 'GET', path: '/bot_storage', as: BOT, params: { keys: [t] } }),
    expect: error('Key does not exist.'),
  },
  {
    name: 'DELETE /bot_storage with a long key',
    send: (t) => call(removeBotStorage, { method: 'DELETE', path: '/bot_storage', as: BOT, params: { keys: [t] } }),
    expect: error('Key does not exist.'),
  },
  {
    name: 'POST /user_groups/create with a long name',
    send: (t) =>
      call(createUserGroup, {
        method: 'POST',
        path: '/user_groups/create',
        as: 'iago@zulip.com',
        params: { name: t, description: '', members: [] },
      }),
    expect: error('User group name cannot exceed 100 characters.'),
  },
  {
    name: 'PATCH /user_groups/{id} with a long name',
    send: (t) =>
      callPath(
        updateUserGroup,
        '/user_groups/{user_group_id}',
        { user_group_id: '9' },
        { method: 'PATCH', as: 'iago@zulip.com', params: { name: t } },
      ),
    expect: error('User group name cannot exceed 100 characters.'),
  },
  {
    name: 'POST /messages/{id}/reactions with a long emoji name',
    send: (t) =>
      callPath(
        addReaction,
        '/messages/{message_id}/reactions',
        { message_id: '1' },
        { method: 'POST', as: HAMLET, params: { emoji_name: t } },
      ),
    expect: error((t) => `Emoji '${t}' does not exist`),
  },
  {
    name: 'GET /api/v1/user_uploads/{realm_id}/{path} with a long path',
    send: (t) =>
      callPath(
        temporaryUploadUrl,
        '/user_uploads/{realm_id_str}/{filename+}',
        { realm_id_str: '2', filename: `ab/cd/${t}` },
        { as: HAMLET },
      ),
    expect: error('File not found.', 404),
  },
  {
    name: 'GET /user_uploads/{realm_id}/{path} with a long path',
    send: async (t) => {
      const event = await buildEvent({
        method: 'GET',
        path: `/user_uploads/2/ab/cd/${t}`,
        as: HAMLET,
        pathParameters: { realm_id_str: '2', filename: `ab/cd/${t}` },
      });
      event.rawPath = `/user_uploads/2/ab/cd/${t}`;
      const response = await serveUpload(event);
      return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
    },
    expect: error('File not found.', 404),
  },
  {
    name: 'GET /user_uploads/temporary/{token}/{filename} with a long token',
    send: async (t) => {
      const token = Buffer.from(`2/ab/cd/${t}:9999999999:x`).toString('hex');
      const event = await buildEvent({
        method: 'GET',
        path: `/user_uploads/temporary/${token}/x`,
        pathParameters: { token, filename: 'x' },
      });
      const response = await serveTemporaryUpload(event);
      return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
    },
    expect: error('Invalid token'),
  },
];

// POST /users needs an administrator with can_create_users (set before the tables are compared).
beforeAll(() => usersStore.update(2, 11, { canCreateUsers: true }));

describe('request text too long for a DynamoDB key', () => {
  let before: unknown[];
  beforeAll(async () => {
    before = await snapshot();
  });

  describe.each(CASES.map((c): [string, Case] => [c.name, c]))('%s', (_name, c) => {
    it.each(TEXTS)('answers %s as upstream', async (_label, t) => {
      c.expect(await c.send(t), t);
    });
  });

  it('left both tables as they were', async () => {
    expect(await snapshot()).toEqual(before);
  });
});

// Where upstream takes the text and succeeds, the text is bounded before it reaches a key: a topic
// is truncated to 60 characters, a file name to 255 bytes; a narrow on a topic or a link to an
// upload no key can name simply finds nothing.
describe('request text too long for a key where upstream succeeds', () => {
  const topicNarrow = (t: string) => [
    { operator: 'channel', operand: 'Verona' },
    { operator: 'topic', operand: t },
  ];

  it.each(TEXTS)('answers GET /messages narrowed to a %s topic with no messages', async (_label, t) => {
    const body = expectSuccess(
      await call(listMessages, { method: 'GET', path: '/messages', as: HAMLET, params: narrowOn(topicNarrow(t)) }),
    );
    expect(body.messages).toEqual([]);
  });

  it.each(TEXTS)('answers POST /messages/flags/narrow on a %s topic with nothing processed', async (_label, t) => {
    const body = expectSuccess(
      await call(updateFlagsForNarrow, {
        method: 'POST',
        path: '/messages/flags/narrow',
        as: HAMLET,
        params: { ...narrowOn(topicNarrow(t)), op: 'add', flag: 'read' },
      }),
    );
    expect(body).toMatchObject({ processed_count: 0, updated_count: 0 });
  });

  it.each(TEXTS)('sends a message with a %s topic to the topic truncated to 60 characters', async (_label, t) => {
    const body = expectSuccess(
      await call(sendMessage, {
        method: 'POST',
        path: '/messages',
        as: HAMLET,
        params: { type: 'stream', to: 'Verona', topic: t, content: 'hi' },
      }),
    );
    const stored = await messagesStore.getMessage(2, body.id as number);
    expect([...stored!.topic]).toHaveLength(60);
  });

  it.each(TEXTS)('sends a message linking a %s upload path, claiming nothing', async (_label, t) => {
    const content = `[file](/user_uploads/2/ab/cd/${t})`.slice(0, 10000);
    const body = expectSuccess(
      await call(sendMessage, {
        method: 'POST',
        path: '/messages',
        as: HAMLET,
        params: { type: 'stream', to: 'Verona', topic: 'x', content },
      }),
    );
    expect(body.id).toEqual(expect.any(Number));
  });

  it.each(TEXTS)('uploads a file with a %s name under the name truncated to 255 bytes, as upstream', async (_label, t) => {
    const boundary = '----oversizedkeys';
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${t}.txt"\r\nContent-Type: text/plain\r\n\r\n`),
      Buffer.from('hello'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const body = expectSuccess(
      await call(uploadFile, {
        method: 'POST',
        path: '/user_uploads',
        as: HAMLET,
        rawBody: { body: multipart.toString('base64'), contentType: `multipart/form-data; boundary=${boundary}`, isBase64Encoded: true },
      }),
    );
    const name = decodeURIComponent(String(body.url).split('/').pop()!);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    const pathId = decodeURIComponent(String(body.url).replace('/user_uploads/', ''));
    expect((await attachmentsStore.getAttachmentWithClaims(pathId))?.attachment.name).toBe(name);
  });
});
