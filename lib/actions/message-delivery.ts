// Delivering a new message: one `message` event per recipient with its own flags. A send to at
// most config.messageInlineRecipients() (100: as many rows as 4 concurrent batches, about what the
// job's own reads and hand-off cost; 1,000 rows take over half a second on DynamoDB Local) writes every row with the message (lib/actions/messages-send.ts) and sends
// the events before answering. A larger one writes only the sender's row, marks the message
// `fanoutPending` and starts the messageFanout job (lib/store/jobs.ts), which writes the other rows,
// then sends every recipient's event, the sender's included, and clears the mark: the sender's
// request does not wait for a thousand rows, and no recipient is told of a message before its row
// exists (so its flags, unread counts and narrows agree with the event). Edits and deletes of a
// message whose mark is set wait for the job (lib/access/messages.ts).
import { config } from '../config';
import { startJob, defineJob } from '../store/jobs';
import { decodeUserIds, encodeUserIds } from '../events/fanout';
import '../events/filters/message';
import { sendEventPerRecipient } from '../events/send';
import type { Channel } from '../models/channel';
import type { MessageEvent } from '../models/event';
import type { Message, MessageRecipient } from '../models/message';
import { messageEditSettings } from '../models/message-edit';
import { apiFlags, buildMessageObject, recipientIdFor, type MessageUser } from '../models/message-object';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as messagesStore from '../store/messages';
import * as realmsStore from '../store/realms';
import * as usersStore from '../store/users';

/** The sending client's own queue and its local id for the message (upstream's local_message_id echo). */
export type SenderEcho = { queueId?: string; localId?: string };

/** What delivering a written message needs. `recipients`: every recipient with its flags, the sender first when one. */
export type Delivery = {
  realm: Realm;
  sender: User;
  message: Message;
  /** Direct-message participants, the sender included (none for a channel message). */
  participants: User[];
  channel: Channel | undefined;
  recipients: MessageRecipient[];
  echo: SenderEcho;
};

/**
 * What the job is given: the message, the echo, and the recipients' flags as the most common set
 * (`flags`) and the recipients whose flags differ (`exceptions`: the sender, mentioned users), each
 * set with its users as runs of ids (lib/events/fanout.ts encodeUserIds), so that the payload stays
 * small at any channel size. The recipients themselves are the message's recipients record, and
 * the send wrote the sender's row itself.
 */
export type FanoutJob = {
  realmId: number;
  messageId: number;
  flags: string[];
  exceptions: { flags: string[]; users: string }[];
  echo: SenderEcho;
};

/** The largest job payload started asynchronously (Lambda's limit is 256 KB); a larger one runs in the request. */
const MAX_JOB_PAYLOAD_BYTES = 240_000;

/**
 * Writes a new message: with at most config.messageInlineRecipients(), with every recipient's row
 * (messagesStore.writeNewMessage); with more, marked `fanoutPending`, with the sender's row only.
 * Then call doDeliverMessage with the same delivery. With the sender's echo (queue_id and
 * local_id), a send that repeats one of the last SENT_LOCAL_ID_SECONDS writes nothing and answers
 * `duplicateOf`, that send's message id: deliver nothing then.
 */
export const doWriteMessage = async (d: Delivery): Promise<{ duplicateOf?: number }> => {
  const { queueId, localId } = d.echo;
  const sentLocalId = queueId !== undefined && localId !== undefined ? { queueId, localId } : undefined;
  if (!deferFanout(d.recipients.length)) return messagesStore.writeNewMessage(d.message, d.recipients, d.channel, { sentLocalId });
  return messagesStore.writeNewMessage({ ...d.message, fanoutPending: true }, d.recipients, d.channel, {
    onlyRowsOf: [d.sender.id],
    sentLocalId,
  });
};

/**
 * Delivers a message doWriteMessage wrote: with at most config.messageInlineRecipients(), every recipient's
 * `message` event now; with more, starts the messageFanout job, which writes the other rows and
 * then sends the events.
 */
export const doDeliverMessage = async (d: Delivery): Promise<void> => {
  if (!deferFanout(d.recipients.length)) return sendMessageEvents(d);
  const bySet = new Map<string, { flags: string[]; userIds: number[] }>();
  for (const r of d.recipients) {
    const key = r.flags.join(',');
    if (!bySet.has(key)) bySet.set(key, { flags: r.flags, userIds: [] });
    bySet.get(key)!.userIds.push(r.userId);
  }
  const [common, ...others] = [...bySet.values()].sort((a, b) => b.userIds.length - a.userIds.length);
  const job: FanoutJob = {
    realmId: d.realm.id,
    messageId: d.message.id,
    flags: common.flags,
    exceptions: others.map((set) => ({ flags: set.flags, users: encodeUserIds([...set.userIds].sort((a, b) => a - b)) })),
    echo: d.echo,
  };
  if (Buffer.byteLength(JSON.stringify(job)) > MAX_JOB_PAYLOAD_BYTES) return doMessageFanout(job);
  await startJob('messageFanout', job);
};

/** The sender first when a recipient, as upstream lists a message event's users. */
export const orderSenderFirst = (ids: number[], senderId: number): number[] =>
  ids.includes(senderId) ? [senderId, ...ids.filter((id) => id !== senderId)] : ids;

/** Whether a send to this many recipients leaves its rows and events to the messageFanout job. */
const deferFanout = (recipientCount: number): boolean => recipientCount > config.messageInlineRecipients();

/**
 * The messageFanout job: reads the message (consistently) and what its events show, writes the
 * rows the send left, sends every recipient's event and clears the mark. Nothing when the message
 * is gone or its mark already cleared (a repeated run). A run that fails after sending and before
 * clearing is repeated by Lambda, and its recipients get the event twice (clients keep messages
 * by id).
 */
export const doMessageFanout = async (job: FanoutJob): Promise<void> => {
  const message = await messagesStore.getMessage(job.realmId, job.messageId, { consistent: true });
  if (!message?.fanoutPending) return;
  const [realm, record, channel, users] = await Promise.all([
    realmsStore.get(job.realmId),
    messagesStore.getRowHolderRecord(job.realmId, job.messageId),
    // Consistently: a notice to a channel created a moment ago is sent by the same request.
    message.streamId === null ? undefined : channelsStore.getChannel(job.realmId, message.streamId, { consistent: true }),
    usersStore.getManyWithSystemBots(job.realmId, [...new Set([message.senderId, ...message.dmUserIds])]),
  ]);
  const sender = users.find((u) => u.id === message.senderId);
  if (!realm || !sender) throw new Error(`message ${job.realmId}/${job.messageId}: its organization or sender is missing`);
  const participants = message.dmUserIds.map((id) => users.find((u) => u.id === id)).filter((u): u is User => u !== undefined);
  const flagsOf = new Map(job.exceptions.flatMap((set) => decodeUserIds(set.users).map((userId) => [userId, set.flags] as const)));
  const recipients = orderSenderFirst(record.sent ?? [], sender.id).map((userId) => ({ userId, flags: flagsOf.get(userId) ?? job.flags }));
  await messagesStore.writeMessageRows(
    message,
    recipients.filter((r) => r.userId !== sender.id),
    channel,
  );
  await sendMessageEvents({ realm, sender, message, participants, channel, recipients, echo: job.echo });
  await messagesStore.clearFanoutPending(job.realmId, job.messageId);
};

defineJob('messageFanout', doMessageFanout);

/**
 * One `message` event per recipient with its own flags (its own recipient_id in a 1:1 direct
 * message), sent as one shared event when many recipients share versions (lib/events/send.ts). A
 * public channel's message also has a version for everyone else (flags [], taken only by
 * `all_public_streams` queues): in the shared event, or, when the recipients' versions go to their
 * own streams, one append to the shard those queues read.
 */
const sendMessageEvents = async (d: Delivery): Promise<void> => {
  const { realm, sender, message: m, participants, channel, echo } = d;
  const senderRef: MessageUser = {
    id: sender.id,
    email: sender.email,
    fullName: sender.fullName,
    avatarSource: sender.avatarSource,
    avatarVersion: sender.avatarVersion,
    avatarPath: sender.avatarPath,
  };
  const base = buildMessageObject(m, {
    sender: senderRef,
    realmStringId: realm.stringId,
    channelName: channel?.name,
    participants: participants.map((u) => ({ id: u.id, email: u.email, fullName: u.fullName })),
    viewerId: sender.id,
    editHistoryVisibility: messageEditSettings(realm).editHistoryVisibility,
  });
  const internal = {
    raw_content: m.content,
    ...(echo.queueId !== undefined && echo.localId !== undefined ? { sender_queue_id: echo.queueId, local_id: echo.localId } : {}),
  };
  // Versions share every part but the flags (and a 1:1 message's recipient_id), so they are cheap to compare.
  const messageOf = new Map<number, Record<string, unknown>>();
  const messageFor = (userId: number) => {
    const recipientId = recipientIdFor(m, userId);
    if (!messageOf.has(recipientId)) messageOf.set(recipientId, { ...base, recipient_id: recipientId });
    return messageOf.get(recipientId)!;
  };
  const flagsOf = new Map<string, string[]>();
  const deliveries = d.recipients.map(({ userId, flags }) => {
    const api = apiFlags(flags);
    const key = api.join(',');
    if (!flagsOf.has(key)) flagsOf.set(key, api);
    const event: MessageEvent = { type: 'message', message: messageFor(userId), flags: flagsOf.get(key)!, ...internal };
    return { userId, event };
  });
  const publicChannel = channel !== undefined && !channel.inviteOnly;
  const others: MessageEvent | undefined = publicChannel
    ? { type: 'message', message: base, flags: [], ...internal, all_public_streams_copy: true }
    : undefined;
  await sendEventPerRecipient(realm.id, deliveries, { others });
};
