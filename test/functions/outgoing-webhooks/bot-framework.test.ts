// The wire protocol of python-zulip-api's bot framework, which cannot be installed here, spoken
// by the test as the packages speak it (read from zulip_botserver/server.py and zulip_bots/lib.py):
// - zulip-botserver: an outgoing webhook's service that finds the bot by bot_email, refuses a
//   wrong token with a 401, strips a leading mention of the bot, has its handler reply through
//   POST /messages as the bot (ExternalBotHandler.send_reply, with `subject`), and answers
//   {"response_not_required": true};
// - zulip-run-bot: registers an event queue for `message` events with an empty narrow, reads
//   the message events, handles those whose flags say `mentioned` (stripped as above) and 1:1
//   direct messages, and replies through POST /messages.
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import { handler as createBot } from '../../../functions/bots/create';
import * as messagesStore from '../../../lib/store/messages';
import * as usersStore from '../../../lib/store/users';
import { call, expectSuccess } from '../../helpers/api';
import { sendMessage, sendMessageId } from '../../helpers/messages';
import { createChannel, HAMLET_ID, IAGO_ID, newestMessageOf } from '../webhooks/hook';
import { createOutgoingBot, startService, type ServiceAnswer, type TestService } from './service';

type BotMessage = { type: string; content: string; display_recipient: string | { email: string }[]; subject: string };

/** zulip_bots' extract_query_without_mention: the content after a leading mention of the bot, else undefined. */
const queryWithoutMention = (content: string, bot: { fullName: string; id: number }): string | undefined => {
  const extended = new RegExp(`^@\\*\\*.*\\|${bot.id}\\*\\*`).exec(content);
  if (extended) return content.slice(extended[0].length).trimStart();
  const mention = `@**${bot.fullName}**`;
  return content.startsWith(mention) ? content.slice(mention.length).trimStart() : undefined;
};

/** ExternalBotHandler.send_reply: POST /messages as the bot, to the message's conversation. */
const sendReply = async (botEmail: string, message: BotMessage, response: string) =>
  expectSuccess(
    await sendMessage(
      botEmail,
      message.type === 'private'
        ? { type: 'private', to: JSON.stringify((message.display_recipient as { email: string }[]).map((r) => r.email)), content: response }
        : { type: 'stream', to: message.display_recipient, subject: message.subject, content: response },
      // The job that posted to this "botserver" is still waiting for its answer.
      { settleJobs: false },
    ),
  );

/** The echo bot's handle_message. */
const echo = (query: string) => `echo: ${query}`;

describe('an outgoing webhook bot served by zulip-botserver', () => {
  let botserver: TestService;
  let bot: { id: number; email: string; fullName: string };
  /** The botserver's botserverrc: the bot's email and the token it expects. */
  let configured: { email: string; token: string };

  beforeAll(async () => {
    botserver = await startService();
    const id = await createOutgoingBot('Helper Bot', 'helper', botserver.url);
    const stored = (await usersStore.get(2, id, { consistent: true }))!;
    bot = { id, email: stored.email, fullName: stored.fullName };
    configured = { email: stored.email, token: stored.service!.token };
    await createChannel('botserver');
    botserver.answer(async (request): Promise<ServiceAnswer> => {
      const event = JSON.parse(request.body);
      if (event.bot_email !== configured.email) return { status: 400, contentType: 'text/html', body: '<h1>Bad Request</h1>' };
      if (event.token !== configured.token) {
        return {
          status: 401,
          contentType: 'text/html',
          body: `<!doctype html>\n<html lang=en>\n<title>401 Unauthorized</title>\n<h1>Unauthorized</h1>\n<p>Request token does not match token found for bot ${event.bot_email} in the Botserver configuration file.</p>\n`,
        };
      }
      const message = event.message as BotMessage;
      const query = event.trigger === 'mention' ? queryWithoutMention(message.content, bot) : message.content;
      if (query !== undefined && ['mention', 'direct_message'].includes(event.trigger)) await sendReply(bot.email, message, echo(query));
      return { body: JSON.stringify({ response_not_required: true }) };
    });
  });
  afterAll(() => botserver.close());

  it('answers a mention at the start of a channel message in its topic, once', async () => {
    const id = await sendMessageId('iago@zulip.com', {
      type: 'stream',
      to: 'botserver',
      topic: 'q',
      content: '@**Helper Bot** hello there',
    });
    const reply = (await newestMessageOf(IAGO_ID))!;
    expect(reply).toMatchObject({ senderId: bot.id, topic: 'q', content: 'echo: hello there' });
    expect(reply.id).toBe(id + 1);
  });

  it('leaves a message that mentions the bot later alone', async () => {
    const id = await sendMessageId('iago@zulip.com', { type: 'stream', to: 'botserver', topic: 'q', content: 'hi @**Helper Bot**' });
    expect((await newestMessageOf(IAGO_ID))!.id).toBe(id);
  });

  it('answers a direct message in the conversation', async () => {
    await sendMessageId('iago@zulip.com', { type: 'private', to: JSON.stringify([bot.id]), content: 'how are you' });
    expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: bot.id, content: 'echo: how are you' });
  });

  it("reports the botserver's 401 for a token it does not know, to the sender and the owner", async () => {
    configured.token = 'some-other-token';
    try {
      const id = await sendMessageId('iago@zulip.com', { type: 'stream', to: 'botserver', topic: 'q', content: '@**Helper Bot** hi' });
      expect((await newestMessageOf(IAGO_ID))!).toMatchObject({ senderId: bot.id, content: 'Failure! Third party responded with 401' });
      const notice = (await newestMessageOf(HAMLET_ID))!;
      expect(notice.content).toContain(
        `/near/${id}) to your bot @_**Helper Bot** triggered an outgoing webhook.\nThe webhook got a response with status code *401*.`,
      );
      expect(notice.content).toContain(
        "The response contains the following payload:\n```\nb'<!doctype html>\\n<html lang=en>\\n<title>401 Unauthorized</title>",
      );
    } finally {
      configured.token = (await usersStore.get(2, bot.id))!.service!.token;
    }
  });
});

describe('a bot run by zulip-run-bot', () => {
  it('gets the messages that mention it or are sent to it from its event queue and replies through POST /messages', async () => {
    const botId = expectSuccess(
      await call(createBot, {
        method: 'POST',
        path: '/bots',
        as: 'hamlet@zulip.com',
        params: { full_name: 'Runner Bot', short_name: 'runner' },
      }),
    ).user_id as number;
    const runner = (await usersStore.get(2, botId, { consistent: true }))!;
    await createChannel('runbot');
    expectSuccess(
      await call(subscribe, {
        method: 'POST',
        path: '/users/me/subscriptions',
        as: 'iago@zulip.com',
        params: { subscriptions: [{ name: 'runbot' }], principals: [botId] },
      }),
    );
    // client.call_on_each_event(callback, ["message"]): register with the event types and narrow [].
    const queue = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: runner.email, params: { event_types: ['message'], narrow: [] } }),
    );
    const mentionId = await sendMessageId('iago@zulip.com', {
      type: 'stream',
      to: 'runbot',
      topic: 'run',
      content: '@**Runner Bot** status',
    });
    await sendMessageId('iago@zulip.com', { type: 'stream', to: 'runbot', topic: 'run', content: 'no mention here' });
    await sendMessageId('iago@zulip.com', { type: 'private', to: JSON.stringify([botId]), content: 'ping' });
    const { events } = expectSuccess(
      await call(getEvents, {
        method: 'GET',
        path: '/events',
        as: runner.email,
        params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true },
      }),
    );
    expect(events.map((e: { type: string }) => e.type)).toEqual(['message', 'message', 'message']);
    expect(events[0].message.id).toBe(mentionId);
    const replyIds: number[] = [];
    for (const event of events as { message: BotMessage; flags: string[] }[]) {
      // lib.py's handle_message: mentioned (stripped), or a 1:1 direct message.
      const mentioned = event.flags.includes('mentioned');
      const oneToOne = event.message.type === 'private' && (event.message.display_recipient as unknown[]).length <= 2;
      const query = mentioned
        ? queryWithoutMention(event.message.content, { fullName: runner.fullName, id: botId })
        : event.message.content;
      if ((mentioned || oneToOne) && query !== undefined) replyIds.push((await sendReply(runner.email, event.message, echo(query))).id);
    }
    const replies = await Promise.all(replyIds.map((id) => messagesStore.getMessage(2, id, { consistent: true })));
    const mentionMessage = (await messagesStore.getMessage(2, mentionId))!;
    expect(replies.map((m) => ({ streamId: m!.streamId, topic: m!.topic, content: m!.content, senderId: m!.senderId }))).toEqual([
      { streamId: mentionMessage.streamId, topic: 'run', content: 'echo: status', senderId: botId },
      { streamId: null, topic: '', content: 'echo: ping', senderId: botId },
    ]);
    expect((await newestMessageOf(IAGO_ID))!.id).toBe(replyIds[1]);
  });
});
