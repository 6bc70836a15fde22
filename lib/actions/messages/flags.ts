// Personal message flags: POST /messages/flags and POST /messages/flags/narrow, and the deprecated
// bulk reads POST /mark_all_as_read, /mark_stream_as_read and /mark_topic_as_read.
// Upstream: zerver/views/message_flags.py, zerver/actions/message_flags.py do_update_message_flags.
import { accessChannelById } from '../../access/channels';
import { MessageViewer } from '../../access/messages';
import { mapLimited } from '../../concurrency';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { UnreadMessageDetails, UpdateMessageFlagsEvent } from '../../models/event';
import { MAX_UNREAD_MESSAGES, WILDCARD_MENTION_FLAGS, type Message, type UserMessage } from '../../models/message';
import { API_FLAGS, HISTORICAL_FLAGS } from '../../models/message-object';
import { EMPTY_TOPIC_FALLBACK_NAME } from '../../models/message-send';
import { type Anchor } from '../../models/message-range';
import type { MessageNarrowTerm } from '../../models/narrow';
import type { User } from '../../models/user';
import * as channelsStore from '../../store/channels';
import { createHistoricalUserMessage, getUserMessageConsistent, replaceUserMessageFlags } from '../../store/message-flags';
import { getMessagesByIds, getUserMessagesByIds, listNewestUnreadOfUser } from '../../store/messages';
import { listNewestMessageIdsOfTopic } from '../../store/topics';
import { readRange, selectNarrow } from './fetch';
import { doStartPushRemovals } from '../push/removals';

/** The flags a user may change (of upstream's API_FLAGS). */
const EDITABLE_FLAGS = ['read', 'starred', 'collapsed'];

/** Upstream's checks of a flag change, in its order: a known flag, an editable one, a known operation. */
export const checkFlagChange = (flag: string, op: string): 'add' | 'remove' => {
  if (!API_FLAGS.includes(flag)) throw new BadRequestError(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw new BadRequestError(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw new BadRequestError(`Invalid message flag operation: '${op}'`);
  return op;
};

const withFlag = (flags: string[], flag: string, op: 'add' | 'remove'): string[] =>
  op === 'add' ? (flags.includes(flag) ? flags : [...flags, flag]) : flags.filter((f) => f !== flag);

/** Row writes in flight at once for one request. */
const FLAG_WRITE_CONCURRENCY = 16;

/**
 * Changes one message's flag, whatever else changes its row meanwhile: a lost conditional write
 * re-reads the row and tries again. True when this call changed the flag.
 */
const changeOne = async (
  user: User,
  id: number,
  row: UserMessage | undefined,
  message: Message | undefined,
  flag: string,
  op: 'add' | 'remove',
): Promise<boolean> => {
  let current = row;
  for (;;) {
    if (!current) {
      if (!message) return false;
      const next = withFlag(HISTORICAL_FLAGS, flag, op);
      if (next.length === HISTORICAL_FLAGS.length && next.every((f) => HISTORICAL_FLAGS.includes(f))) return false;
      if (await createHistoricalUserMessage(message, user.id, next)) return true;
    } else {
      const next = withFlag(current.flags, flag, op);
      if (next === current.flags || next.length === current.flags.length) return false;
      if (await replaceUserMessageFlags(user.id, id, current.flags, next)) return true;
    }
    current = await getUserMessageConsistent(user.id, id);
  }
};

/** What a client needs to count a message unread again (upstream's message_details). */
const unreadDetails = async (
  user: User,
  facts: { streamId: number | null; topic: string; dmUserIds: number[]; flags: string[] },
  muted: (id: number) => Promise<boolean>,
): Promise<UnreadMessageDetails> => {
  const wildcard = facts.flags.some((f) => WILDCARD_MENTION_FLAGS.includes(f));
  if (facts.streamId === null) {
    const mentioned = facts.flags.includes('mentioned') || wildcard;
    const others = facts.dmUserIds.filter((id) => id !== user.id).sort((a, b) => a - b);
    return { type: 'private', user_ids: others, ...(mentioned ? { mentioned: true as const } : {}) };
  }
  const unmuted = !(await muted(facts.streamId));
  const mentioned = facts.flags.includes('mentioned') || (wildcard && unmuted);
  return {
    type: 'stream',
    stream_id: facts.streamId,
    topic: facts.topic,
    unmuted_stream_msg: unmuted,
    ...(mentioned ? { mentioned: true as const } : {}),
  };
};

export type FlagsResult = { changed: number[]; ignoredChannels: number[] };

/**
 * Upstream's do_update_message_flags. Marking unread skips channel messages of channels the user
 * is not subscribed to (reported back). A message without the user's row counts as read and
 * historical: adding `read` to it does nothing, any other change needs the message to be visible
 * ("Invalid message(s)" for the whole request, before any write) and creates the row. Each changed
 * row moves into or out of the unread and starred indexes, conditionally on its flags. Sends
 * `update_message_flags` with the ids that changed (even none), in request order, to the user's
 * queues; removing `read` adds each message's `message_details`.
 */
export const updateMessageFlags = async (user: User, messageIds: number[], flag: string, op: 'add' | 'remove'): Promise<FlagsResult> => {
  const ids = [...new Set(messageIds)];
  const rows = new Map((await getUserMessagesByIds(user.id, ids)).map((r) => [r.messageId, r]));
  const missing = ids.filter((id) => !rows.has(id));
  const messages = new Map<number, Message>();
  if (missing.length > 0 && !(op === 'add' && flag === 'read')) {
    const viewer = new MessageViewer(user);
    for (const m of await getMessagesByIds(user.realmId, missing)) messages.set(m.id, m);
    for (const id of missing) {
      const message = messages.get(id);
      if (!message || !(await viewer.canSee(message, false))) throw new BadRequestError('Invalid message(s)');
    }
  }
  const subscribed = new Map<number, Promise<boolean>>();
  const isSubscribed = (channelId: number): Promise<boolean> => {
    if (!subscribed.has(channelId)) {
      subscribed.set(
        channelId,
        channelsStore.getSubscription(user.id, channelId).then((s) => s?.active === true),
      );
    }
    return subscribed.get(channelId)!;
  };
  const ignored = new Set<number>();
  const targets: number[] = [];
  for (const id of ids) {
    const streamId = rows.get(id)?.streamId ?? messages.get(id)?.streamId ?? null;
    if (op === 'remove' && flag === 'read' && streamId !== null && !(await isSubscribed(streamId))) {
      ignored.add(streamId);
      continue;
    }
    targets.push(id);
  }
  const changedFlags = await mapLimited(targets, FLAG_WRITE_CONCURRENCY, (id) =>
    changeOne(user, id, rows.get(id), messages.get(id), flag, op),
  );
  const changed = targets.filter((_, i) => changedFlags[i]);
  let event: UpdateMessageFlagsEvent;
  if (op === 'add') event = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
  else {
    event = { type: 'update_message_flags', op, operation: op, flag, messages: changed, all: false };
    if (flag === 'read') {
      const muted = async (channelId: number) => (await channelsStore.getSubscription(user.id, channelId))?.isMuted === true;
      const details: Record<string, UnreadMessageDetails> = {};
      for (const id of changed) {
        const source = rows.get(id) ?? messages.get(id)!;
        const flags = withFlag(rows.get(id)?.flags ?? HISTORICAL_FLAGS, 'read', 'remove');
        details[String(id)] = await unreadDetails(
          user,
          { streamId: source.streamId ?? null, topic: source.topic ?? '', dmUserIds: source.dmUserIds ?? [], flags },
          muted,
        );
      }
      event.message_details = details;
    }
  }
  await sendEvent(user.realmId, event, { users: [user.id] });
  if (flag === 'read' && op === 'add') await doStartPushRemovals(user, changed);
  return { changed, ignoredChannels: [...ignored] };
};

/** Upstream's clamp of a flags-by-narrow range to MAX_MESSAGES_PER_UPDATE (5,000). */
const clampRange = (numBefore: number, numAfter: number): [number, number] => {
  const before = Math.min(numBefore, Math.max(5000 - numAfter, 2500));
  return [before, Math.min(numAfter, 5000 - before)];
};

/**
 * POST /messages/flags/narrow after its parameter and anchor checks: selects the messages of the
 * narrow around the anchor exactly as GET /messages would (narrow errors first), then checks the
 * flag change and applies it as updateMessageFlags.
 */
export const updateMessageFlagsForNarrow = async (
  user: User,
  req: {
    anchor: Anchor;
    numBefore: number;
    numAfter: number;
    includeAnchor: boolean;
    narrow: MessageNarrowTerm[];
    flag: string;
    op: string;
  },
): Promise<Record<string, unknown>> => {
  const [numBefore, numAfter] = clampRange(req.numBefore, req.numAfter);
  const selection = await selectNarrow(user, req.narrow);
  const range = await readRange(selection, req.anchor, numBefore, numAfter, req.includeAnchor);
  const op = checkFlagChange(req.flag, req.op);
  const ids = range.messages.map((v) => v.message.id);
  const result = await updateMessageFlags(user, ids, req.flag, op);
  return {
    processed_count: ids.length,
    updated_count: result.changed.length,
    first_processed_id: ids.length > 0 ? ids[0] : null,
    last_processed_id: ids.length > 0 ? ids[ids.length - 1] : null,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    ignored_because_not_subscribed_channels: result.ignoredChannels,
  };
};

/**
 * Marks the listed messages' rows read (a message without the user's row already counts as read),
 * returning the ids that changed, in the order given. No event.
 */
const markRowsRead = async (user: User, messageIds: number[]): Promise<number[]> => {
  const rows = await getUserMessagesByIds(user.id, messageIds);
  const changed = await mapLimited(rows, FLAG_WRITE_CONCURRENCY, (row) => changeOne(user, row.messageId, row, undefined, 'read', 'add'));
  return rows.filter((_, i) => changed[i]).map((row) => row.messageId);
};

/** How many unread messages POST /mark_all_as_read reads and marks at a time (upstream's batch size). */
const MARK_ALL_BATCH = 2000;
/** How long POST /mark_all_as_read keeps marking before it answers `complete: false` (well inside a function's 10 s). */
const MARK_ALL_BUDGET_MS = 5000;

/**
 * Upstream's do_mark_all_as_read: marks the user's unread messages read, newest first in batches
 * from the unread index, until none is left or the time budget is spent. Complete, it sends one
 * `update_message_flags` event with no ids and `all: true` (the client reloads its unread
 * counts); out of time, it answers `complete: false` without an event, and the client repeats.
 */
export const markAllAsRead = async (user: User): Promise<{ complete: boolean }> => {
  const started = Date.now();
  for (;;) {
    if (Date.now() - started >= MARK_ALL_BUDGET_MS) return { complete: false };
    const { messages, truncated } = await listNewestUnreadOfUser(user.id, MARK_ALL_BATCH);
    if (messages.length > 0)
      await markRowsRead(
        user,
        messages.map((m) => m.messageId),
      );
    if (!truncated) break;
  }
  const event: UpdateMessageFlagsEvent = {
    type: 'update_message_flags',
    op: 'add',
    operation: 'add',
    flag: 'read',
    messages: [],
    all: true,
  };
  await sendEvent(user.realmId, event, { users: [user.id] });
  await doStartPushRemovals(user, 'all');
  return { complete: true };
};

/**
 * Upstream's do_mark_stream_messages_as_read (and the end of do_mark_muted_user_messages_as_read):
 * marks the given unread messages (listUnreadOfChannel, or a muted sender's) read, and sends
 * `update_message_flags` with the ids marked, when there were any to mark.
 */
const markMessagesAsRead = async (user: User, unread: number[]): Promise<void> => {
  if (unread.length === 0) return;
  const changed = await markRowsRead(user, unread);
  const event: UpdateMessageFlagsEvent = {
    type: 'update_message_flags',
    op: 'add',
    operation: 'add',
    flag: 'read',
    messages: changed,
    all: false,
  };
  await sendEvent(user.realmId, event, { users: [user.id] });
  await doStartPushRemovals(user, changed);
};

/**
 * Upstream's do_mark_muted_user_messages_as_read, for a mute just made: marks read the user's
 * unread messages sent by the muted user (from the unread index, as POST /mark_stream_as_read: the
 * cost follows the user's unread count, at most MAX_UNREAD_MESSAGES), then, when any changed,
 * sends `update_message_flags` (add read, ascending ids) to the user's queues and hands the ids to
 * the push job to withdraw their notifications.
 */
export const markMutedUserMessagesAsRead = async (user: User, mutedUserId: number): Promise<void> => {
  const { messages } = await listNewestUnreadOfUser(user.id, MAX_UNREAD_MESSAGES);
  const unread = messages
    .filter((m) => m.senderId === mutedUserId)
    .map((m) => m.messageId)
    .sort((a, b) => a - b);
  await markMessagesAsRead(user, unread);
};

/**
 * The ids of the user's unread messages of a channel (of one topic, case-insensitively, unless
 * `topic` is empty), ascending, from the unread index: the cost follows the user's unread count.
 */
const listUnreadOfChannel = async (user: User, channelId: number, topic: string): Promise<number[]> => {
  const { messages } = await listNewestUnreadOfUser(user.id, MAX_UNREAD_MESSAGES);
  const lower = topic.toLowerCase();
  return messages
    .filter((m) => m.streamId === channelId && (topic === '' || m.topic.toLowerCase() === lower))
    .map((m) => m.messageId)
    .sort((a, b) => a - b);
};

/** POST /mark_stream_as_read: "Invalid channel ID" for a channel the user may not access. */
export const markChannelAsRead = async (user: User, channelId: number): Promise<void> => {
  await accessChannelById(user, channelId, 'Invalid channel ID');
  await markMessagesAsRead(user, await listUnreadOfChannel(user, channelId, ''));
};

/**
 * POST /mark_topic_as_read: "Invalid channel ID", then a named topic must hold a message the user
 * received ("No such topic '…'"). As upstream, the empty topic (also by its display name, "general
 * chat") names no topic and so marks the whole channel read.
 */
export const markTopicAsRead = async (user: User, channelId: number, topicName: string): Promise<void> => {
  await accessChannelById(user, channelId, 'Invalid channel ID');
  const topic = topicName === EMPTY_TOPIC_FALLBACK_NAME ? '' : topicName;
  const unread = await listUnreadOfChannel(user, channelId, topic);
  // An unread message of the topic is one the user received.
  if (topic !== '' && unread.length === 0 && !(await userReceivedInTopic(user, channelId, topic))) {
    throw new BadRequestError(`No such topic '${topic}'`);
  }
  await markMessagesAsRead(user, unread);
};

/**
 * Whether the user has a row of a message of the topic (upstream's user_message_exists_for_topic),
 * judged by the topic's newest TOPIC_PARTICIPANTS_WINDOW messages: a user whose rows are all older
 * is told the topic does not exist, when there is nothing unread of it to mark anyway.
 */
const userReceivedInTopic = async (user: User, channelId: number, topic: string): Promise<boolean> => {
  const ids = await listNewestMessageIdsOfTopic(channelId, topic);
  for (let i = 0; i < ids.length; i += 100) {
    if ((await getUserMessagesByIds(user.id, ids.slice(i, i + 100))).length > 0) return true;
  }
  return false;
};
