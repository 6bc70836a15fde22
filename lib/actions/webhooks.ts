// Incoming webhooks (upstream's webhook_view and check_send_webhook_message): the integration
// turns the third party's request into messages (lib/integrations), and they are posted as the
// bot: to the channel and topic the URL names (`stream`, `topic`), or as a direct message to the
// bot's owner when the URL names no channel. Configuration problems the owner can fix (a body that
// is not JSON, a missing event header, a channel that does not exist) are told to the owner by
// Notification Bot, at most once a minute per bot, as upstream's rate-limited notices.
import { nowSeconds } from '../clock';
import { config } from '../config';
import {
  ApiError,
  AnomalousWebhookPayloadError,
  ErrorCode,
  InvalidJsonError,
  MissingHttpEventHeaderError,
  UnsupportedWebhookEventTypeError,
} from '../errors';
import { eventWanted } from '../integrations/common';
import { Wild, parseJsonPayload } from '../integrations/payload';
import type { Integration, PeopleLookup, WebhookMessage } from '../integrations/types';
import type { Realm } from '../models/realm';
import { NOTIFICATION_BOT_EMAIL, type User } from '../models/user';
import * as usersStore from '../store/users';
import { sendInternalMessage, sendMessage } from './messages/send';

/** Upstream's BOT_OWNER_STREAM_ALERT_WAITPERIOD: one notice a minute per bot. */
const NOTICE_WAIT_SECONDS = 60;

export type IncomingWebhook = {
  /** The request path, for the notice of a missing event header. */
  path: string;
  headers: Record<string, string | undefined>;
  rawBody: string;
  contentType: string;
  param: (name: string) => string | undefined;
  /** The URL's channel (a name, or an id in digits) and topic, and its event filters. */
  stream: string | undefined;
  topic: string | undefined;
  onlyEvents: string[] | undefined;
  excludeEvents: string[] | undefined;
};

/** Upstream's send_rate_limited_pm_notification_to_bot_owner. Writes the bot's lastReminder; sends one direct message. */
const notifyBotOwner = async (realm: Realm, bot: User, content: string): Promise<void> => {
  if (!bot.isBot || bot.botOwnerId === null || bot.realmId !== realm.id) return;
  const owner = await usersStore.get(realm.id, bot.botOwnerId);
  const notifier = await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL);
  if (!owner || !notifier) return;
  if (!(await usersStore.claimBotReminder(realm.id, bot.id, nowSeconds(), NOTICE_WAIT_SECONDS))) return;
  await sendInternalMessage(realm, notifier, { user: owner }, content);
};

const invalidJsonNotice = (integration: Integration): string =>
  `Hi there! It looks like you tried to set up the Zulip ${integration.clientName} integration,\n` +
  "but didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!";

const missingHeaderNotice = (bot: User, path: string, header: string, integration: Integration): string =>
  `Hi there!  Your bot ${bot.fullName} just sent an HTTP request to ${path} that\n` +
  `is missing the HTTP ${header} header.  Because this header is how\n` +
  `${integration.clientName} indicates the event type, this usually indicates a configuration\n` +
  'issue, where you either entered the URL for a different integration, or are running\n' +
  "an older version of the third-party service that doesn't provide that header.\n" +
  `Contact ${config.pushContactEmail()} if you need help debugging!\n`;

/** Upstream's send_pm_if_empty_stream, for a channel that does not exist. */
const missingChannelNotice = (bot: User, stream: string, byId: boolean): string =>
  byId
    ? `Your bot \`${bot.email}\` tried to send a message to channel ID ${stream}, but there is no channel with that ID.`
    : `Your bot \`${bot.email}\` tried to send a message to channel #**${stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`;

/** The organization's people as the integrations may look them up: one indexed read each. */
const peopleOf = (realm: Realm): PeopleLookup => ({
  fullNameByEmail: async (email) => (await usersStore.getByEmail(realm.id, email))?.fullName,
  fullNameByName: async (name) =>
    (await usersStore.listByFullNames(realm.id, [name], 10)).filter((u) => u.isActive).sort((a, b) => a.id - b.id)[0]?.fullName,
});

/** Python's urllib.parse.unquote: %XX escapes decoded as UTF-8, anything malformed kept as it is. */
const unquote = (text: string): string =>
  text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/** The integration's messages, with upstream's webhook errors named after it. */
const messagesOf = async (realm: Realm, bot: User, integration: Integration, hook: IncomingWebhook): Promise<WebhookMessage[]> => {
  let payload = new Wild(undefined);
  if (integration.body === 'json') {
    const parsed = parseJsonPayload(hook.rawBody);
    if (!parsed) {
      await notifyBotOwner(realm, bot, invalidJsonNotice(integration));
      throw new InvalidJsonError();
    }
    payload = new Wild(parsed.value);
  }
  try {
    return await integration.receive({
      payload,
      headers: hook.headers,
      param: hook.param,
      rawBody: hook.rawBody,
      contentType: hook.contentType,
      people: peopleOf(realm),
    });
  } catch (error) {
    if (error instanceof UnsupportedWebhookEventTypeError)
      throw new UnsupportedWebhookEventTypeError(error.eventType, integration.clientName);
    if (error instanceof AnomalousWebhookPayloadError) throw new AnomalousWebhookPayloadError(integration.clientName);
    if (error instanceof MissingHttpEventHeaderError)
      await notifyBotOwner(realm, bot, missingHeaderNotice(bot, hook.path, error.header, integration));
    throw error;
  }
};

/**
 * Receives an incoming webhook for `bot` (authenticated by the caller): checks the body (JSON
 * where the integration needs it), builds the messages, drops those only_events or
 * exclude_events filter out, and posts each as the bot (lib/actions/messages/send.ts, with
 * every check of a send), with the client `Zulip<Name>Webhook`. A channel that does not exist
 * posts nothing and tells the bot's owner. Writes the messages; emits their events.
 */
export const receiveIncomingWebhook = async (realm: Realm, bot: User, integration: Integration, hook: IncomingWebhook): Promise<void> => {
  const messages = await messagesOf(realm, bot, integration, hook);
  const stream = hook.stream !== undefined && integration.unquoteUrlParameters ? unquote(hook.stream) : hook.stream;
  const topic = hook.topic !== undefined && integration.unquoteUrlParameters ? unquote(hook.topic) : hook.topic;
  const client = `Zulip${integration.clientName}Webhook`;
  for (const message of messages) {
    if (message.eventType !== undefined && !eventWanted(message.eventType, hook.onlyEvents, hook.excludeEvents)) continue;
    const base = {
      client,
      content: message.content,
      readBySender: undefined,
      queueId: undefined,
      localId: undefined,
      forged: undefined,
      sender: undefined,
    };
    if (stream === undefined) {
      // Upstream's check_send_private_message to the bot's owner; an account without one (a person's key) writes to itself.
      await sendMessage(bot, realm, { ...base, type: 'private', to: JSON.stringify([bot.botOwnerId ?? bot.id]), topic: undefined });
      continue;
    }
    const byId = /^\d+$/.test(stream);
    try {
      await sendMessage(bot, realm, {
        ...base,
        type: 'stream',
        to: byId ? stream : JSON.stringify(stream),
        topic: topic ?? message.topic,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== ErrorCode.STREAM_DOES_NOT_EXIST) throw error;
      await notifyBotOwner(realm, bot, missingChannelNotice(bot, stream, byId));
    }
  }
};
