// POST /api/v1/external/{integration_name}: what every integration shares (authentication as
// upstream's webhook_view, the stream and topic parameters, the direct message to the bot's owner,
// the owner's notices, hostile bodies), through the JSON integration; and POST /messages by an
// incoming-webhook bot. The payloads are this project's own.
import { handler as sendHandler } from '../../../functions/messages/send';
import { handler as me } from '../../../functions/users/me';
import { NOTIFICATION_BOT_EMAIL } from '../../../lib/models/user';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';
import { withRealm } from '../../helpers/realm';
import { BOT_ID, HAMLET_ID, IAGO_ID, OTHELLO_ID, OWNER_ID, botKey, createChannel, hook, newestMessageOf, receiversOf } from './hook';

const payload = { build: 7, ok: true, tags: ['nightly'], who: 'Zoë' };
const pretty = '```json\n{\n  "build": 7,\n  "ok": true,\n  "tags": [\n    "nightly"\n  ],\n  "who": "Zo\\u00eb"\n}\n```';

beforeAll(async () => {
  await createChannel('hooks');
});

const newestIdOf = async (userId: number) => (await newestMessageOf(userId))?.id;

describe('POST /external/json', () => {
  it('posts the indented payload to the channel in topic "JSON", to its subscribers', async () => {
    expectSuccess(await hook('json', { body: JSON.stringify(payload) }));
    const message = (await newestMessageOf(IAGO_ID))!;
    expect(message).toMatchObject({ senderId: BOT_ID, topic: 'JSON', content: pretty, sendingClient: 'ZulipJSONWebhook' });
    expect(await receiversOf(message.id, [BOT_ID, HAMLET_ID, IAGO_ID, OTHELLO_ID])).toEqual([HAMLET_ID, IAGO_ID]);
  });

  it('answers the bare success envelope', async () => {
    const result = await hook('json', { body: '[1]' });
    expect({ status: result.status, body: result.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
  });

  it('takes the topic from the topic parameter and the channel by id', async () => {
    const channelId = (await newestMessageOf(IAGO_ID))!.streamId!;
    expectSuccess(await hook('json', { query: { api_key: await botKey(), stream: String(channelId), topic: 'builds' }, body: '{}' }));
    expect(await newestMessageOf(IAGO_ID)).toMatchObject({ streamId: channelId, topic: 'builds', content: '```json\n{}\n```' });
  });

  it('serves the trailing-slash URL too', async () => {
    expectSuccess(await hook('json', { name: 'json/', body: '{"slash": 1}' }));
    expect((await newestMessageOf(IAGO_ID))!.content).toBe('```json\n{\n  "slash": 1\n}\n```');
  });

  it('sends a direct message to the bot owner when no channel is named', async () => {
    expectSuccess(await hook('json', { query: { api_key: await botKey() }, body: '{"dm": true}' }));
    const message = (await newestMessageOf(OWNER_ID))!;
    expect(message).toMatchObject({
      senderId: BOT_ID,
      streamId: null,
      dmUserIds: [OWNER_ID, BOT_ID],
      content: '```json\n{\n  "dm": true\n}\n```',
    });
  });

  it('authenticates with HTTP basic credentials when there is no api_key', async () => {
    const before = await newestIdOf(IAGO_ID);
    expectSuccess(await hook('json', { query: { stream: 'hooks' }, authorization: basicAuth('webhook-bot@zulip.com', await botKey()) }));
    expect(await newestIdOf(IAGO_ID)).not.toBe(before);
  });
});

describe('incoming webhook errors', () => {
  let before: number | undefined;
  beforeEach(async () => {
    before = await newestIdOf(IAGO_ID);
  });
  afterEach(async () => {
    // Nothing was posted to the channel.
    expect(await newestIdOf(IAGO_ID)).toBe(before);
  });

  it('answers 404 for an integration this server does not run, before authenticating', async () => {
    expectError(await hook('nosuchservice', { query: {} }), 'Not Found', 404);
  });

  it('answers "Missing \'api_key\' argument" without a key or credentials', async () => {
    expectError(await hook('json', { query: { stream: 'hooks' } }), "Missing 'api_key' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it.each([
    ['a malformed key', 'short', 'Malformed API key'],
    ['an unknown key', 'A'.repeat(32), 'Invalid API key'],
  ])('answers 401 for %s', async (_, key, msg) => {
    const result = await hook('json', { query: { api_key: key, stream: 'hooks' } });
    expectError(result, msg, 401, 'INVALID_API_KEY');
  });

  it('answers 401 UNAUTHORIZED for wrong basic credentials', async () => {
    const result = await hook('json', { query: { stream: 'hooks' }, authorization: basicAuth('webhook-bot@zulip.com', 'B'.repeat(32)) });
    expectError(result, 'Invalid API key', 401, 'UNAUTHORIZED');
  });

  it('refuses a deactivated bot', async () => {
    await usersStore.update(2, BOT_ID, { isActive: false });
    try {
      expectError(await hook('json'), 'Account is deactivated', 401, 'USER_DEACTIVATED');
    } finally {
      await usersStore.update(2, BOT_ID, { isActive: true });
    }
  });

  it('refuses a bot of a deactivated organization', async () => {
    await withRealm({ deactivated: true }, async () => {
      expectError(await hook('json'), 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
    });
  });

  it('answers "Malformed JSON" for a body that is not JSON and tells the owner once a minute', async () => {
    const ownerBefore = await newestIdOf(OWNER_ID);
    expectError(await hook('json', { body: '{"unterminated' }), 'Malformed JSON', 400, 'INVALID_JSON');
    const notice = (await newestMessageOf(OWNER_ID))!;
    expect(notice.id).not.toBe(ownerBefore);
    const notifier = (await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL))!;
    expect(notice).toMatchObject({
      senderId: notifier.id,
      content:
        'Hi there! It looks like you tried to set up the Zulip JSON integration,\n' +
        "but didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!",
    });
    expectError(await hook('json', { body: 'not json' }), 'Malformed JSON', 400, 'INVALID_JSON');
    expect(await newestIdOf(OWNER_ID)).toBe(notice.id);
  });

  it('posts nothing to a channel that does not exist, answers success and tells the owner', async () => {
    await usersStore.update(2, BOT_ID, { lastReminder: 0 });
    expectSuccess(await hook('json', { query: { api_key: await botKey(), stream: 'no such channel' } }));
    expect((await newestMessageOf(OWNER_ID))!.content).toBe(
      'Your bot `webhook-bot@zulip.com` tried to send a message to channel #**no such channel**, but that channel does not exist. Click [here](#channels/new) to create it.',
    );
  });

  it('answers 400 for only_events that is not a JSON list', async () => {
    const result = await hook('json', { query: { api_key: await botKey(), stream: 'hooks', only_events: '"push"' } });
    expectError(result, 'only_events is not a list');
  });
});

describe('hostile bodies', () => {
  it('posts a huge payload truncated, never failing', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(300_000) });
    expectSuccess(await hook('json', { body: big }));
    const content = (await newestMessageOf(IAGO_ID))!.content;
    expect(content.length).toBeLessThanOrEqual(10_000);
    expect(content.endsWith('[message truncated]')).toBe(true);
  });

  it('answers "Malformed JSON" for JSON nested deeper than any service sends', async () => {
    const result = await hook('json', { body: '['.repeat(200_000) + ']'.repeat(200_000) });
    expectError(result, 'Malformed JSON', 400, 'INVALID_JSON');
  });
});

describe('POST /messages by an incoming-webhook bot', () => {
  it('sends, as upstream allows', async () => {
    const result = await call(sendHandler, {
      method: 'POST',
      path: '/messages',
      authorization: basicAuth('webhook-bot@zulip.com', await botKey()),
      params: { type: 'stream', to: 'hooks', topic: 'direct', content: 'sent through the API' },
    });
    const { id } = expectSuccess(result);
    expect(await newestMessageOf(IAGO_ID)).toMatchObject({ id, senderId: BOT_ID, topic: 'direct', content: 'sent through the API' });
  });

  it('is still refused on the other endpoints', async () => {
    const result = await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth('webhook-bot@zulip.com', await botKey()) });
    expectError(result, 'This API is not available to incoming webhook bots.', 401, 'UNAUTHORIZED');
  });
});
