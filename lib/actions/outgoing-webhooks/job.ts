// The outgoingWebhook job (lib/actions/jobs.ts): one try at posting a message to the service of
// the outgoing webhook bot it triggered, as upstream's OutgoingWebhookWorker and do_rest_call.
//
// - 2xx: the answer's reply (lib/integrations/outgoing.ts replyOfService), if any, is sent as the
//   bot into the message's topic or direct-message conversation. An answer that is no reply
//   (bad JSON, not an object) or a reply the send refuses: "Failure! <why>" there, and the bot's
//   owner is told.
// - Another status: "Failure! Third party responded with <status>", and the owner is told.
// - No answer in time, or no connection: tried again by a new run of the job, up to
//   MAX_REQUEST_RETRIES more times (upstream's failed_tries); then "Failure! Bot is unavailable"
//   and the owner is told.
// - Any other failure of the request (an answer too large): "Failure! An exception ...", and the owner is told.
//
// A run that fails itself (DynamoDB) is retried by Lambda: the service may then be posted to twice.
import { ApiError } from '../../errors';
import { replyOfService, serviceRequest, pyRepr } from '../../integrations/outgoing';
import { messageEditSettings } from '../../models/message-edit';
import { adaptMessageForViewer, buildMessageObject } from '../../models/message-object';
import { realmHost } from '../../models/realm';
import { SERVICE_VERSION } from '../../config';
import * as channelsStore from '../../store/channels';
import { startJob } from '../../store/jobs';
import * as messagesStore from '../../store/messages';
import { postToService, ServiceConnectionError, ServiceRequestError, ServiceTimeoutError } from '../../store/outgoing-webhooks';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { config } from '../../config';
import { failWithMessage, notifyBotOwner, sendReply, type Triggered } from './notices';
import type { OutgoingWebhookJob } from './triggers';

/** Upstream's MAX_REQUEST_RETRIES: a request that times out or cannot connect is tried this many more times. */
const MAX_REQUEST_RETRIES = 3;

/** The User-Agent of the requests, as upstream's (ZulipOutgoingWebhook/<version>). */
const USER_AGENT = `ZulipOutgoingWebhook/${SERVICE_VERSION.version}`;

/** What the job reads: the message, its sender, participants and channel, the bot and the organization (undefined when gone). */
const loadTriggered = async (job: OutgoingWebhookJob): Promise<Triggered | undefined> => {
  const [message, bot, realm] = await Promise.all([
    messagesStore.getMessage(job.realmId, job.messageId, { consistent: true }),
    usersStore.get(job.realmId, job.botId, { consistent: true }),
    realmsStore.get(job.realmId),
  ]);
  if (!message || !bot?.isActive || !bot.service || !realm) return undefined;
  const [people, channel] = await Promise.all([
    usersStore.getMany(job.realmId, [...new Set([message.senderId, ...message.dmUserIds])]),
    message.streamId === null ? undefined : channelsStore.getChannel(job.realmId, message.streamId),
  ]);
  const sender = people.find((u) => u.id === message.senderId);
  if (!sender || (message.streamId !== null && !channel)) return undefined;
  const participants = message.dmUserIds.map((id) => people.find((u) => u.id === id)).filter((u) => u !== undefined);
  return { realm, bot, service: bot.service, message, sender, channel, participants };
};

/** The message as upstream's outgoing webhooks send it: GET /messages' format, raw Markdown, with its rendered_content. */
const messageForService = (t: Triggered): Record<string, unknown> & { type: string; content: string } => {
  const base = buildMessageObject(t.message, {
    sender: t.sender,
    realmStringId: t.realm.stringId,
    channelName: t.channel?.name,
    participants: t.participants,
    viewerId: t.bot.id,
    editHistoryVisibility: messageEditSettings(t.realm).editHistoryVisibility,
  });
  const raw = adaptMessageForViewer(base, {
    viewerId: t.bot.id,
    applyMarkdown: false,
    clientGravatar: false,
    allowEmptyTopicName: true,
    rawContent: t.message.content,
    dmUserIds: t.message.dmUserIds,
    streamId: t.message.streamId,
    senderId: t.message.senderId,
  });
  return { ...raw, type: raw.type as string, content: t.message.content, rendered_content: base.content };
};

/** Upstream's request_retry: another run of the job, or after the last, the failure and the owner's notice. */
const requestRetry = async (job: OutgoingWebhookJob, t: Triggered, failure: string): Promise<void> => {
  const failedTries = job.failedTries + 1;
  if (failedTries <= MAX_REQUEST_RETRIES) {
    await startJob('outgoingWebhook', { ...job, failedTries } satisfies OutgoingWebhookJob);
    return;
  }
  await failWithMessage(t, 'Bot is unavailable');
  await notifyBotOwner(t, { failureMessage: failure });
};

/** One run of the outgoingWebhook job (see the header). Nothing when the message, the bot or its service is gone. */
export const doOutgoingWebhook = async (job: OutgoingWebhookJob): Promise<void> => {
  const t = await loadTriggered(job);
  if (!t) return;
  const request = serviceRequest(t.service.interface, {
    message: messageForService(t),
    trigger: job.trigger,
    token: t.service.token,
    botId: t.bot.id,
    botEmail: t.bot.email,
    botFullName: t.bot.fullName,
    realmId: t.realm.id,
    realmHost: realmHost(t.realm),
  });
  if ('refused' in request) {
    await failWithMessage(t, request.refused);
    return;
  }
  let response;
  try {
    response = await postToService(t.service.baseUrl, request, USER_AGENT);
  } catch (error) {
    if (error instanceof ServiceTimeoutError) {
      return requestRetry(job, t, `Request timed out after ${config.outgoingWebhookTimeoutSeconds()} seconds.`);
    }
    if (error instanceof ServiceConnectionError) return requestRetry(job, t, 'A connection error occurred. Is my bot server down?');
    if (!(error instanceof ServiceRequestError)) throw error;
    await failWithMessage(
      t,
      `An exception of type *${error.kind}* occurred for message \`${t.message.content}\`! See the Zulip server logs for more information.`,
    );
    await notifyBotOwner(t, { exception: error });
    return;
  }
  if (response.status < 200 || response.status >= 300) {
    await failWithMessage(t, `Third party responded with ${response.status}`);
    await notifyBotOwner(t, { statusCode: response.status, responseContent: response.body.length > 0 ? pyRepr(response.body) : undefined });
    return;
  }
  const text = response.body.toString('utf8');
  try {
    const reply = replyOfService(t.service.interface, text);
    if (reply !== undefined) await sendReply(t, reply);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    await failWithMessage(t, error.message);
    await notifyBotOwner(t, {
      failureMessage: `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error.message}`,
      responseContent: text.length > 0 ? pyRepr(text) : undefined,
    });
  }
};
