// What an outgoing webhook bot says back, as upstream's send_response_message, fail_with_message
// and notify_bot_owner: its reply where it was triggered, "Failure! ..." there when its service
// failed, and a direct message to its owner that says what went wrong.
import { ApiError } from '../../errors';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import { realmUrl, type Realm } from '../../models/realm';
import type { BotService, User } from '../../models/user';
import { messageLink } from '../../render/message-links';
import * as usersStore from '../../store/users';
import { sendMessage } from '../messages/send';
import { log } from '../../log';

/** A message that triggered a bot, with what its job read. */
export type Triggered = {
  realm: Realm;
  bot: User;
  service: BotService;
  message: Message;
  sender: User;
  channel: Channel | undefined;
  participants: User[];
};

/** Upstream's client name for these messages. */
const CLIENT = 'OutgoingWebhookResponse';

const sendAsBot = async (t: Triggered, to: { channel: Channel; topic: string } | { userIds: number[] }, content: string) =>
  sendMessage(t.bot, t.realm, {
    type: 'channel' in to ? 'stream' : 'private',
    to: 'channel' in to ? String(to.channel.id) : JSON.stringify(to.userIds),
    topic: 'channel' in to ? to.topic : undefined,
    content,
    client: CLIENT,
    readBySender: undefined,
    queueId: undefined,
    localId: undefined,
    forged: undefined,
    sender: undefined,
  });

/**
 * Upstream's send_response_message: `content` as the bot, in the triggering message's topic, or
 * to everyone in its direct-message conversation. Throws the send's 4xx.
 */
export const sendReply = async (t: Triggered, content: string): Promise<void> => {
  await sendAsBot(t, t.channel ? { channel: t.channel, topic: t.message.topic } : { userIds: t.message.dmUserIds }, content);
};

/** Upstream's fail_with_message: "Failure! <why>" where the bot was triggered; nothing if that send is refused (the channel gone). */
export const failWithMessage = async (t: Triggered, failure: string): Promise<void> => {
  try {
    await sendReply(t, `Failure! ${failure}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    log.warn('outgoing webhook failure notice not sent', { messageId: t.message.id, error: error.message });
  }
};

/** What notifyBotOwner says went wrong: one of an exception, a failure text or a status, and what the service answered. */
export type OwnerNotice = { exception?: Error; failureMessage?: string; statusCode?: number; responseContent?: string };

/** Upstream's notify_bot_owner text. */
const ownerNoticeText = (t: Pick<Triggered, 'realm' | 'bot' | 'message' | 'channel'>, n: OwnerNotice): string => {
  const url = messageLink(realmUrl(t.realm), t.message, t.channel, t.bot.id);
  let text = `[A message](${url}) to your bot @_**${t.bot.fullName}** triggered an outgoing webhook.`;
  if (n.exception) {
    const name = 'kind' in n.exception ? String(n.exception.kind) : n.exception.name;
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${name} occurred:\n\`\`\`\n${n.exception.message}\n\`\`\``;
  } else if (n.failureMessage) text += `\n${n.failureMessage}`;
  else if (n.statusCode) text += `\nThe webhook got a response with status code *${n.statusCode}*.`;
  if (n.responseContent) text += `\nThe response contains the following payload:\n\`\`\`\n${n.responseContent}\n\`\`\``;
  return text;
};

/** Upstream's notify_bot_owner: a direct message from the bot to its owner (none for a bot without one). */
export const notifyBotOwner = async (t: Triggered, notice: OwnerNotice): Promise<void> => {
  if (t.bot.botOwnerId === null) return;
  const owner = await usersStore.get(t.realm.id, t.bot.botOwnerId);
  if (!owner?.isActive) return;
  try {
    await sendAsBot(t, { userIds: [owner.id] }, ownerNoticeText(t, notice));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    log.warn('outgoing webhook owner notice not sent', { messageId: t.message.id, error: error.message });
  }
};
