// Delivering a new message: one `message` event per recipient with its own flags, and each
// recipient's row. Every send writes, with the message itself, what its delivery still owes
// (`pendingDelivery`: the recipients' flags, whether their rows are written, who delivers it and
// until when), and removes it once every recipient has it, so that a delivery interrupted at any
// point is finished by another process, once:
//
// - A send to at most config.messageInlineRecipients() (100: as many rows as 4 concurrent
//   batches) writes every row with the message and sends the events before answering. If that
//   fails after the message is stored, the send still answers with its id (the message exists; a
//   client retrying would store it twice) and hands the rest to the messageFanout job.
// - A larger one writes only the sender's row and leaves the other rows and every event to the
//   messageFanout job (lib/store/jobs.ts), so the sender does not wait for a thousand rows and no
//   recipient is told of a message before its row exists. Edits and deletes of such a message wait
//   for its rows (accessEditableMessage, lib/access/messages.ts).
// - A request that dies between its write and its hand-off (a timeout, a crash) leaves the
//   message with its pending delivery and a lease that runs out; the deliveryRecovery function,
//   fed by the main table's stream with every new message that has one, waits for the lease and
//   finishes what is left (doRecoverDeliveries).
//
// Whoever delivers first takes the lease (claimPendingDelivery); a later delivery reads back the
// streams it appends to and leaves out the events an earlier one wrote (lib/events/send.ts
// DeliveryIdentity), so each recipient gets the event once. The job and the recovery function
// are retried by Lambda and then land in the dead-letter queue (serverless.yml), which an
// operator replays with `npm run replay-deliveries` (scripts/replay-deliveries.ts).
import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { nowMs } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config } from '../../config';
import { startJob } from '../../store/jobs';
import { readStream } from '../../store/table-stream';
import { decodeUserIds, encodeUserIds } from '../../events/fanout';
import '../../events/filters/message';
import { sendEventPerRecipient, type DeliveryIdentity } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { MessageEvent } from '../../models/event';
import type { Message, MessageRecipient, PendingDelivery } from '../../models/message';
import { messageEditSettings } from '../../models/message-edit';
import { apiFlags, buildMessageObject, recipientIdFor, type MessageUser } from '../../models/message-object';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import * as messagesStore from '../../store/messages';
import * as pendingDeliveriesStore from '../../store/pending-deliveries';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { log } from '../../log';

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

/** What the messageFanout job is given: the message, and the owner of its delivery's lease it takes over (the request that hands it on). */
export type FanoutJob = { realmId: number; messageId: number; owner?: string };

/**
 * How long a delivery's lease lasts: a request's, past the API functions' 10 s Lambda timeout
 * (functions/routes.js DEFAULT_TIMEOUT), so that nobody takes over a request still delivering; a
 * job's, past the messageFanout function's 120 s (JOBS). A deliverer stopped by its timeout has
 * then lost its lease, and the next one may take over.
 */
export const REQUEST_LEASE_MS = 15_000;
export const JOB_LEASE_MS = 130_000;

/**
 * The largest pending delivery kept on a message item (DynamoDB's item limit is 400 KB, and the
 * message's own content and HTML take up to about 100 KB). Only a send whose recipients' flags
 * differ for tens of thousands of scattered users has a larger one: it is delivered in the
 * request, without a record to finish it by.
 */
const MAX_PENDING_DELIVERY_BYTES = 150_000;

/** How far before a message's send time (s) a later delivery reads streams back: clocks of two processes may differ a little. */
const CLOCK_SKEW_MS = 5_000;

/** The identity of a message's events (lib/events/send.ts DeliveryIdentity). */
const messageEventsId = (messageId: number): string => `m${messageId}`;

/** A send's pending delivery: the recipients' flags as the most common set and the sets that differ. */
const pendingDeliveryOf = (d: Delivery, rowsWritten: boolean): PendingDelivery => {
  const bySet = new Map<string, { flags: string[]; userIds: number[] }>();
  for (const r of d.recipients) {
    const key = r.flags.join(',');
    if (!bySet.has(key)) bySet.set(key, { flags: r.flags, userIds: [] });
    bySet.get(key)!.userIds.push(r.userId);
  }
  const [common, ...others] = [...bySet.values()].sort((a, b) => b.userIds.length - a.userIds.length);
  return {
    flags: common?.flags ?? [],
    exceptions: others.map((set) => ({ flags: set.flags, users: encodeUserIds([...set.userIds].sort((a, b) => a - b)) })),
    echo: {
      ...(d.echo.queueId !== undefined ? { queueId: d.echo.queueId } : {}),
      ...(d.echo.localId !== undefined ? { localId: d.echo.localId } : {}),
    },
    rowsWritten,
    owner: randomUUID(),
    leaseUntil: nowMs() + REQUEST_LEASE_MS,
    // A request delivering itself is the first attempt; one leaving it all to its job is none.
    attempts: rowsWritten ? 1 : 0,
  };
};

/**
 * Writes a new message with its pending delivery (d.message.pendingDelivery is set to it): with at
 * most config.messageInlineRecipients(), with every recipient's row (messagesStore.writeNewMessage);
 * with more, with the sender's row only. Then call doDeliverMessage with the same delivery. With
 * the sender's echo (queue_id and local_id), a send that repeats one of the last
 * SENT_LOCAL_ID_SECONDS writes nothing and answers `duplicateOf`, that send's message id: deliver
 * nothing then.
 */
export const doWriteMessage = async (d: Delivery): Promise<{ duplicateOf?: number }> => {
  const { queueId, localId } = d.echo;
  const sentLocalId = queueId !== undefined && localId !== undefined ? { queueId, localId } : undefined;
  let deferred = deferFanout(d.recipients.length);
  const pending = pendingDeliveryOf(d, !deferred);
  if (Buffer.byteLength(JSON.stringify(pending)) <= MAX_PENDING_DELIVERY_BYTES) d.message.pendingDelivery = pending;
  else deferred = false;
  return messagesStore.writeNewMessage(d.message, d.recipients, d.channel, {
    sentLocalId,
    ...(deferred ? { onlyRowsOf: [d.sender.id] } : {}),
  });
};

/**
 * Delivers a message doWriteMessage wrote: with its rows written, every recipient's `message`
 * event now, then its pending delivery is removed; otherwise (and when that fails) the
 * messageFanout job is started to do the rest. Fails only when the message has no pending
 * delivery to finish it by.
 */
export const doDeliverMessage = async (d: Delivery): Promise<void> => {
  const pending = d.message.pendingDelivery;
  if (!pending) return sendMessageEvents(d);
  if (pending.rowsWritten) {
    try {
      await sendMessageEvents(d, { id: messageEventsId(d.message.id) });
      await pendingDeliveriesStore.clearPendingDelivery(d.realm.id, d.message.id, pending.owner);
      return;
    } catch (error) {
      logDelivery('handed to its job after a failure', d.realm.id, d.message.id, error);
    }
  }
  try {
    await startJob('messageFanout', { realmId: d.realm.id, messageId: d.message.id, owner: pending.owner } satisfies FanoutJob);
  } catch (error) {
    // The message keeps its pending delivery: deliveryRecovery finishes it once the lease runs out.
    logDelivery('left to deliveryRecovery: its job could not be started', d.realm.id, d.message.id, error);
  }
};

const logDelivery = (what: string, realmId: number, messageId: number, error?: unknown): void => {
  log.error(`delivery: ${what}`, { realmId, messageId, ...(error ? { error: String((error as Error).stack ?? error) } : {}) });
};

/** The sender first when a recipient, as upstream lists a message event's users. */
export const orderSenderFirst = (ids: number[], senderId: number): number[] =>
  ids.includes(senderId) ? [senderId, ...ids.filter((id) => id !== senderId)] : ids;

/** Whether a send to this many recipients leaves its rows and events to the messageFanout job. */
const deferFanout = (recipientCount: number): boolean => recipientCount > config.messageInlineRecipients();

/**
 * The messageFanout job, and what deliveryRecovery runs for a message: finishes a message's pending
 * delivery. Reads the message (consistently); nothing when it is gone or delivered, or when someone
 * else holds its lease. Otherwise takes the lease, writes the rows the send left, sends the events
 * an earlier attempt did not (each recipient gets its event once) and removes the pending
 * delivery. Safe to run again at any point.
 */
export const doMessageFanout = async (job: FanoutJob): Promise<void> => {
  const message = await messagesStore.getMessage(job.realmId, job.messageId, { consistent: true });
  const pending = message?.pendingDelivery;
  if (!message || !pending) return;
  // A job's runs share one owner, so that a retry takes over the lease a failed run took; anyone
  // else (deliveryRecovery, a replay) owns its lease alone.
  const owner = job.owner === undefined ? randomUUID() : `${job.owner}/job`;
  const now = nowMs();
  if (
    !(await pendingDeliveriesStore.claimPendingDelivery(
      { ...message, pendingDelivery: pending },
      { owner, leaseUntil: now + JOB_LEASE_MS, now, from: job.owner },
    ))
  )
    return;
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
  const flagsOf = new Map(pending.exceptions.flatMap((set) => decodeUserIds(set.users).map((userId) => [userId, set.flags] as const)));
  const recipients = orderSenderFirst(record.sent ?? [], sender.id).map((userId) => ({
    userId,
    flags: flagsOf.get(userId) ?? pending.flags,
  }));
  if (!pending.rowsWritten) {
    await messagesStore.writeMessageRows(
      message,
      recipients.filter((r) => r.userId !== sender.id),
      channel,
    );
  }
  const identity: DeliveryIdentity = {
    id: messageEventsId(message.id),
    ...(pending.attempts > 0 ? { resumeSince: message.dateSent * 1000 - CLOCK_SKEW_MS } : {}),
  };
  await sendMessageEvents({ realm, sender, message, participants, channel, recipients, echo: pending.echo }, identity);
  await pendingDeliveriesStore.clearPendingDelivery(job.realmId, job.messageId, owner);
};

/** How many messages deliveryRecovery finishes at once. */
const RECOVERY_CONCURRENCY = 8;

/** A record of the main table's stream, as Lambda passes it (only what recovery reads). */
export type StreamRecord = { eventName?: string; dynamodb?: { NewImage?: Record<string, AttributeValue> } };

/**
 * The deliveryRecovery function: given the main table's stream records of new messages with a
 * pending delivery (its event source's filter passes only those), waits until the newest one's
 * request lease has run out, then finishes each that nobody has (doMessageFanout). A failure
 * throws, so Lambda retries the batch (halving it), then sends it to the dead-letter queue.
 */
export const doRecoverDeliveries = async (records: StreamRecord[]): Promise<void> => {
  const pending = records.flatMap((r) => {
    if (r.eventName !== 'INSERT' || !r.dynamodb?.NewImage) return [];
    // Only the attributes it needs: the image's other values are the message's, in any shape.
    const image = r.dynamodb.NewImage;
    const pendingDelivery = image.pendingDelivery?.M;
    const [realmId, messageId, leaseUntil] = [image.realmId?.N, image.id?.N, pendingDelivery?.leaseUntil?.N].map(Number);
    if (!pendingDelivery || !Number.isInteger(realmId) || !Number.isInteger(messageId)) return [];
    return [{ realmId, messageId, leaseUntil: Number.isFinite(leaseUntil) ? leaseUntil : 0 }];
  });
  if (pending.length === 0) return;
  const wait = Math.min(REQUEST_LEASE_MS, Math.max(...pending.map((p) => p.leaseUntil)) + 1 - nowMs());
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await mapLimited(pending, RECOVERY_CONCURRENCY, (p) => doMessageFanout({ realmId: p.realmId, messageId: p.messageId }));
};

/**
 * Replays one entry of the delivery dead-letter queue (serverless.yml DeliveryDeadLetterQueue):
 * a messageFanout run that failed every attempt (Lambda's record of it holds the job's payload),
 * or a deliveryRecovery batch that did (it names the stream's shard and the batch's first and last
 * sequence numbers; the records are read again from the stream, which keeps them 24 hours). Throws
 * for anything else, and when the delivery fails again.
 */
export const doReplayDeadLetter = async (body: string): Promise<{ messages: number }> => {
  const entry = JSON.parse(body) as {
    requestPayload?: Partial<FanoutJob>;
    DDBStreamBatchInfo?: { streamArn: string; shardId: string; startSequenceNumber: string; endSequenceNumber: string };
  };
  const job = entry.requestPayload;
  if (job && typeof job.realmId === 'number' && typeof job.messageId === 'number') {
    await doMessageFanout({ realmId: job.realmId, messageId: job.messageId });
    return { messages: 1 };
  }
  const batch = entry.DDBStreamBatchInfo;
  if (batch) {
    const { records } = await readStream(batch.streamArn, [{ shardId: batch.shardId, at: batch.startSequenceNumber }], {
      until: batch.endSequenceNumber,
    });
    await doRecoverDeliveries(records as StreamRecord[]);
    return { messages: records.length };
  }
  throw new Error('not an entry of the delivery dead-letter queue');
};

/**
 * One `message` event per recipient with its own flags (its own recipient_id in a 1:1 direct
 * message), sent as one shared event when many recipients share versions (lib/events/send.ts). A
 * public channel's message also has a version for everyone else (flags [], taken only by
 * `all_public_streams` queues): in the shared event, or, when the recipients' versions go to their
 * own streams, one append to the shard those queues read.
 */
const sendMessageEvents = async (d: Delivery, identity?: DeliveryIdentity): Promise<void> => {
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
  await sendEventPerRecipient(realm.id, deliveries, { others, ...(identity ? { identity } : {}) });
};
