// Outgoing webhooks, as upstream's zerver/lib/outgoing_webhook.py: a channel message that mentions
// an outgoing webhook bot, or a direct message to it, is posted to the bot's service (a real HTTP
// server of the test's), and the answer comes back as the bot; failures say "Failure! ..." where
// the bot was triggered and tell its owner (hamlet 10). iago 11 writes; both are in `robots`.
import { doOutgoingWebhook } from '../../../lib/actions/outgoing-webhooks/job';
import * as usersStore from '../../../lib/store/users';
import { expectSuccess } from '../../helpers/api';
import { sendMessage, sendMessageId } from '../../helpers/messages';
import { createChannel, HAMLET_ID, IAGO_ID, newestMessageOf } from '../webhooks/hook';
import { closedUrl, createOutgoingBot, startService, type TestService } from './service';

process.env.OUTGOING_WEBHOOK_TIMEOUT_SECONDS = '1';

let service: TestService;
let botId: number;
let token: string;

beforeAll(async () => {
  service = await startService();
  botId = await createOutgoingBot('Echo Bot', 'echo', service.url);
  token = (await usersStore.get(2, botId, { consistent: true }))!.service!.token;
  await createChannel('robots');
});
afterAll(() => service.close());
beforeEach(() => {
  service.requests.length = 0;
  service.answer(() => ({ body: '{}' }));
});

const mention = (text = 'ping', topic = 'checks') =>
  sendMessageId('iago@zulip.com', { type: 'stream', to: 'robots', topic, content: `@**Echo Bot** ${text}` });
const direct = (text = 'ping') => sendMessageId('iago@zulip.com', { type: 'private', to: JSON.stringify([botId]), content: text });
/** The owner notice's text after its link to the message. */
const noticeAfterLink = (content: string, messageId: number): string => {
  const [link, rest] = content.split(') to your bot @_**Echo Bot** triggered an outgoing webhook.');
  expect(link).toMatch(new RegExp(`^\\[A message\\]\\(http[^)]*/#narrow/(channel/\\d+-robots/topic/[^/]+|dm/[^/]+)/near/${messageId}$`));
  return rest;
};

describe('a mention in a channel', () => {
  it("posts upstream's payload to the service and sends its content as the bot into the topic", async () => {
    service.answer(() => ({ body: JSON.stringify({ content: 'pong' }) }));
    const id = await mention();
    expect(service.requests).toHaveLength(1);
    const [request] = service.requests;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^ZulipOutgoingWebhook\//);
    const payload = JSON.parse(request.body);
    expect(payload).toEqual({
      data: '@**Echo Bot** ping',
      token,
      trigger: 'mention',
      bot_email: 'echo-bot@localhost',
      bot_full_name: 'Echo Bot',
      message: expect.objectContaining({
        id,
        type: 'stream',
        display_recipient: 'robots',
        subject: 'checks',
        content: '@**Echo Bot** ping',
        content_type: 'text/x-markdown',
        rendered_content: `<p><span class="user-mention" data-user-id="${botId}">@Echo Bot</span> ping</p>`,
        sender_id: IAGO_ID,
        sender_email: 'iago@zulip.com',
        sender_full_name: 'Iago',
        sender_realm_str: 'zulip',
      }),
    });
    expect(payload.message.avatar_url).toEqual(expect.any(String));
    const reply = (await newestMessageOf(IAGO_ID))!;
    expect(reply).toMatchObject({ senderId: botId, topic: 'checks', content: 'pong', sendingClient: 'OutgoingWebhookResponse' });
    expect(reply.id).toBeGreaterThan(id);
  });

  it('sends nothing for response_not_required, for an empty string and for an answer without content', async () => {
    for (const body of ['{"response_not_required": true, "content": "no"}', '""', '{}', '{"content": "   "}']) {
      service.answer(() => ({ body }));
      const id = await mention();
      expect((await newestMessageOf(IAGO_ID))!.id).toBe(id);
    }
    expect(service.requests).toHaveLength(4);
  });

  it("sends response_string as upstream's older answer", async () => {
    service.answer(() => ({ body: '{"response_string": "older"}' }));
    await mention();
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: botId, content: 'older' });
  });

  it('posts nothing for a message that does not mention the bot, and nothing for a message a bot sent', async () => {
    await sendMessageId('iago@zulip.com', { type: 'stream', to: 'robots', topic: 'checks', content: 'Echo Bot, no mention' });
    const bot = (await usersStore.get(2, botId, { consistent: true }))!;
    const own = await sendMessage('echo-bot@localhost', { type: 'stream', to: 'robots', topic: 'checks', content: '@**Echo Bot** me' });
    expectSuccess(own);
    expect(bot.isBot).toBe(true);
    expect(service.requests).toHaveLength(0);
  });
});

describe('a run of the job', () => {
  it('posts nothing for a message that no longer exists, or a bot that is not an outgoing webhook bot', async () => {
    await doOutgoingWebhook({ realmId: 2, messageId: 999_999, botId, trigger: 'mention', failedTries: 0 });
    const id = await sendMessageId('iago@zulip.com', { type: 'stream', to: 'robots', topic: 'checks', content: 'plain' });
    await doOutgoingWebhook({ realmId: 2, messageId: id, botId: 16, trigger: 'mention', failedTries: 0 });
    expect(service.requests).toHaveLength(0);
  });
});

describe('a direct message to the bot', () => {
  it('posts it with the direct_message trigger and answers in the conversation', async () => {
    service.answer(() => ({ body: JSON.stringify({ content: 'hello back' }) }));
    const id = await direct('hello');
    const payload = JSON.parse(service.requests[0].body);
    expect(payload).toMatchObject({ data: 'hello', trigger: 'direct_message', message: { id, type: 'private', content: 'hello' } });
    expect(payload.message.display_recipient.map((r: { email: string }) => r.email).sort()).toEqual([
      'echo-bot@localhost',
      'iago@zulip.com',
    ]);
    const reply = (await newestMessageOf(IAGO_ID))!;
    expect(reply).toMatchObject({ senderId: botId, content: 'hello back', dmUserIds: [IAGO_ID, botId].sort((a, b) => a - b) });
  });
});

describe('failures', () => {
  it('reports an error status at once, where the bot was mentioned and to its owner, without retrying', async () => {
    service.answer(() => ({ status: 500, body: 'oops', contentType: 'text/plain' }));
    const id = await mention('fail', 'status');
    expect(service.requests).toHaveLength(1);
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({
      senderId: botId,
      topic: 'status',
      content: 'Failure! Third party responded with 500',
    });
    const notice = (await newestMessageOf(HAMLET_ID))!;
    expect(notice).toMatchObject({ senderId: botId, dmUserIds: [HAMLET_ID, botId].sort((a, b) => a - b) });
    expect(noticeAfterLink(notice.content, id)).toBe(
      "\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n```\nb'oops'\n```",
    );
  });

  it.each([
    ['not JSON', 'not json', 'Invalid JSON in response', "'not json'"],
    ['not an object', '[1, 2]', 'Invalid response format', "'[1, 2]'"],
  ])('reports an answer that is %s', async (_what, body, error, repr) => {
    service.answer(() => ({ body }));
    const id = await direct('bad answer');
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: botId, content: `Failure! ${error}` });
    expect(noticeAfterLink((await newestMessageOf(HAMLET_ID))!.content, id)).toBe(
      '\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n' +
        `> ${error}\nThe response contains the following payload:\n\`\`\`\n${repr}\n\`\`\``,
    );
  });

  it('tries a service that does not answer in time four times, then says the bot is unavailable', async () => {
    service.answer(() => ({ delayMs: 2_500, body: '{"content": "late"}' }));
    const id = await mention('slow', 'timeouts');
    expect(service.requests).toHaveLength(4);
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: botId, topic: 'timeouts', content: 'Failure! Bot is unavailable' });
    expect(noticeAfterLink((await newestMessageOf(HAMLET_ID))!.content, id)).toBe('\nRequest timed out after 1 seconds.');
  });

  it('tries again once a service that timed out answers, and sends that answer', async () => {
    let calls = 0;
    service.answer(() => ((calls += 1) === 1 ? { delayMs: 2_500 } : { body: '{"content": "second time"}' }));
    await mention('again');
    expect(service.requests).toHaveLength(2);
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: botId, content: 'second time' });
  });

  it('reports a service that refuses connections after the retries', async () => {
    const down = await createOutgoingBot('Down Bot', 'down', await closedUrl());
    const id = await sendMessageId('iago@zulip.com', { type: 'private', to: JSON.stringify([down]), content: 'anyone?' });
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: down, content: 'Failure! Bot is unavailable' });
    const notice = (await newestMessageOf(HAMLET_ID))!;
    expect(notice.senderId).toBe(down);
    expect(notice.content).toContain(
      `/near/${id}) to your bot @_**Down Bot** triggered an outgoing webhook.\nA connection error occurred. Is my bot server down?`,
    );
  });

  it('stops reading an answer larger than the cap, and reports it', async () => {
    service.answer(() => ({ body: JSON.stringify({ content: 'x'.repeat(300 * 1024) }) }));
    await mention('huge', 'huge');
    const failure = (await newestMessageOf(IAGO_ID))!;
    expect(failure).toMatchObject({ senderId: botId, topic: 'huge' });
    expect(failure.content).toBe(
      'Failure! An exception of type *ResponseTooLarge* occurred for message `@**Echo Bot** huge`! See the Zulip server logs for more information.',
    );
    expect((await newestMessageOf(HAMLET_ID))!.content).toContain(
      'When trying to send a request to the webhook service, an exception of type ResponseTooLarge occurred:\n```\nThe response is larger than 262144 bytes.\n```',
    );
  });
});
