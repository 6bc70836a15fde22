// Editing, moving within a channel and deleting messages, and reading their edit history: upstream's
// zerver/views/message_edit.py, zerver/actions/message_edit.py and zerver/actions/message_delete.py.
// The rules of who may do what and until when are lib/access/message-edit.ts; the writes are
// lib/store/message-edits.ts.
import { createHash } from 'node:crypto';
import { accessChannelById, subscriberViewers } from '../access/channels';
import {
  checkCanChangeTopic,
  checkCanDeleteMessage,
  checkCanEditContent,
  checkCanMoveToChannel,
  withinMoveLimits,
} from '../access/message-edit';
import { RealmGroups } from '../access/user-groups';
import { nowSeconds } from '../clock';
import { mapLimited } from '../concurrency';
import { ApiError, BadRequestError, ErrorCode } from '../errors';
import { sendEvent, sendEventPerRecipient } from '../events/send';
import type { Channel } from '../models/channel';
import type { Message } from '../models/message';
import type { DeleteMessageEvent, UpdateMessageEvent } from '../models/event';
import { normalizeMessageContent, normalizeTopic, pyStrip, stripBody } from '../models/message-content';
import {
  type EditHistoryEntry,
  type HistorySnapshot,
  historySnapshots,
  isResolveToggle,
  messageEditSettings,
  type PropagateMode,
  RESOLVED_TOPIC_PREFIX,
  visibleEditHistory,
} from '../models/message-edit';
import { sortLinkifiers } from '../models/linkifier';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import { settingsOfUser } from '../models/user-settings';
import { renderMessage, topicLinks, type TopicLink } from '../render';
import { renderContent } from './message-render';
import { sendMessagesMovedNotices } from './channel-notices';
import { checkNewTopic, checkTopicPolicy } from './messages-send';
import { doMoveTopicPolicies } from './user-topics';
import * as channelsStore from '../store/channels';
import { accessMessage, messageActionAudience, rowHolderCandidates } from '../access/messages';
import * as linkifiersStore from '../store/linkifiers';
import * as editsStore from '../store/message-edits';
import * as messagesStore from '../store/messages';
import * as usersStore from '../store/users';

/** A message the user may act on, with the user's row (if received) and its channel (null for a direct message). */
export type AccessedMessage = { message: Message; flags: string[] | undefined; channel: Channel | null };

/** How many moved messages one request writes at a time (their items, then their rows). */
const MOVE_CONCURRENCY = 16;

/**
 * How long an edit or delete waits for a message's fan-out job (well inside the function's 10 s
 * Lambda timeout; the job writes 10,000 rows in about a second on DynamoDB), and how often it looks again.
 */
const FANOUT_WAIT_MS = 5_000;
const FANOUT_POLL_MS = 50;

/**
 * accessMessage (lib/access/messages.ts, the one rule) with the message read with its edit
 * history. `modifying`: a message whose rows a fan-out job is still writing (pendingDelivery,
 * lib/actions/message-delivery.ts) is waited for, up to FANOUT_WAIT_MS, so that an edit or a
 * delete reaches every row and precedes no recipient's `message` event.
 */
const accessEditableMessage = async (user: User, messageId: number, opts: { modifying: boolean }): Promise<AccessedMessage> => {
  const load = () => accessMessage(user, messageId, { ...opts, load: editsStore.getEditableMessage });
  let accessed = await load();
  for (
    let waited = 0;
    opts.modifying && accessed.message.pendingDelivery?.rowsWritten === false && waited < FANOUT_WAIT_MS;
    waited += FANOUT_POLL_MS
  ) {
    await new Promise((resolve) => setTimeout(resolve, FANOUT_POLL_MS));
    accessed = await load();
  }
  return { message: accessed.message, flags: accessed.userMessage?.flags, channel: accessed.channel ?? null };
};

// ---------------------------------------------------------------------------------------------
// DELETE /messages/{message_id}

/**
 * Upstream's delete_message_backend: access for modification, checkCanDeleteMessage, then
 * doDeleteMessage.
 */
export const checkDeleteMessage = async (realm: Realm, user: User, messageId: number): Promise<void> => {
  const { message, channel } = await accessEditableMessage(user, messageId, { modifying: true });
  const [groups, sender] = await Promise.all([
    RealmGroups.load(realm.id),
    message.senderId === user.id ? Promise.resolve(user) : usersStore.get(realm.id, message.senderId),
  ]);
  checkCanDeleteMessage(realm, groups, user, message, { channel, sender, now: nowSeconds() });
  await doDeleteMessage(user, message, channel);
};

/**
 * The writes of a delete, without its events: the message's item and every row of it
 * (editsStore.deleteMessage), and who is told of it (messageActionAudience over the rows'
 * holders). `deleted` false: a concurrent delete won. `firstMessageId`: the channel's new first
 * message id when this message was its first (`channel` as the caller knows it).
 */
export const deleteMessageAndRows = async (
  message: Message,
  channel: Channel | null,
): Promise<{ deleted: boolean; receivers: number[]; firstMessageId?: number | null }> => {
  const candidates = await rowHolderCandidates(message);
  const rows = await editsStore.listRowsOfMessage(message.id, candidates);
  const holders = rows.map((r) => r.userId);
  const { deleted, firstMessageId } = await editsStore.deleteMessage(message, holders, channel?.firstMessageId);
  if (!deleted) return { deleted, receivers: [] };
  return { deleted, receivers: await messageActionAudience(message, channel, holders), firstMessageId };
};

/**
 * Deletes a message (its item, the recipients' rows, and lowers the topic summary, the
 * conversation items and the channel's first message id that named it). A concurrent delete that
 * won first: "Message already deleted". Emits `delete_message` to upstream's receivers (direct
 * messages: the participants with a row; protected-history channels: subscribers with a row;
 * other private channels: all subscribers; public channels: subscribers and non-guests with a
 * row; always the deleting user), and a `stream` update of `first_message_id` to those who see
 * the channel's metadata when it changed (subscriberViewers: its subscribers, and every non-guest
 * for a public channel, its administrators and metadata groups for a private one).
 */
export const doDeleteMessage = async (actingUser: User, message: Message, channel: Channel | null): Promise<void> => {
  const { deleted, receivers, firstMessageId } = await deleteMessageAndRows(message, channel);
  if (!deleted) throw new BadRequestError('Message already deleted');
  const event: DeleteMessageEvent =
    channel === null
      ? { type: 'delete_message', message_ids: [message.id], message_type: 'private' }
      : {
          type: 'delete_message',
          message_ids: [message.id],
          message_type: 'stream',
          stream_id: channel.id,
          topic: message.topic.toLowerCase(),
        };
  await sendEvent(actingUser.realmId, event, { users: [...new Set([...receivers, actingUser.id])] });
  if (channel !== null && firstMessageId !== undefined) {
    await sendEvent(
      actingUser.realmId,
      { type: 'stream', op: 'update', stream_id: channel.id, name: channel.name, property: 'first_message_id', value: firstMessageId },
      // Who sees the channel's metadata (upstream's can_access_stream_metadata_user_ids), without
      // reading the organization's users.
      await subscriberViewers(
        channel,
        new Set(await channelsStore.listSubscriberIdsOfChannel(channel.id)),
        await RealmGroups.load(channel.realmId),
      ),
    );
  }
};

// ---------------------------------------------------------------------------------------------
// GET /messages/{message_id}/history

/**
 * Upstream's get_message_edit_history: refused when the organization shows no edit history
 * ("Message edit history is disabled in this organization"), then access as for reading; the
 * snapshots oldest first (only moves under the "moves" policy). Without `allowEmptyTopicName` the
 * empty topic reads as the organization's empty-topic display name.
 */
export const getMessageHistory = async (
  realm: Realm,
  user: User,
  messageId: number,
  allowEmptyTopicName: boolean,
): Promise<HistorySnapshot[]> => {
  const visibility = messageEditSettings(realm).editHistoryVisibility;
  if (visibility === 'none') throw new BadRequestError('Message edit history is disabled in this organization');
  const { message } = await accessEditableMessage(user, messageId, { modifying: false });
  const history = visibleEditHistory(message.editHistory ?? [], visibility) ?? [];
  const snapshots = historySnapshots(
    {
      topic: message.topic,
      content: message.content,
      renderedContent:
        message.renderedContent ?? renderMessage(message.content, { users: [], groups: [], channels: [], linkifiers: [] }).html,
      senderId: message.senderId,
      dateSent: message.dateSent,
      streamId: message.streamId,
    },
    history,
  );
  if (allowEmptyTopicName || message.streamId === null) return snapshots;
  const shown = (topic: string) => (topic === '' ? realm.emptyTopicDisplayName : topic);
  return snapshots.map((s) => ({
    ...s,
    topic: shown(s.topic),
    ...(s.prev_topic !== undefined ? { prev_topic: shown(s.prev_topic) } : {}),
  }));
};

// ---------------------------------------------------------------------------------------------
// PATCH /messages/{message_id}

export type MessageEditRequest = {
  content?: string;
  prevContentSha256?: string;
  propagateMode: PropagateMode;
  sendNotificationToNewThread: boolean;
  sendNotificationToOldThread: boolean;
  streamId?: number;
  topic?: string;
};

/** What the content of an edit renders to, and which rows it mentions. */
type RenderedEdit = { content: string; html: string; mentionFlagsOf: (userId: number) => string[]; isMeMessage: boolean; hasLink: boolean };

/**
 * Renders edited content with what it refers to (renderContent: only the users, groups and
 * channels it names, and the organization's linkifiers), and says which mention flags each
 * recipient's row gets: `mentioned` for a user mentioned by name or through a mentioned group,
 * `wildcard_mentioned` for everyone on a channel wildcard (@**all**, @**everyone**, @**channel**,
 * @**stream**) or a topic wildcard (@**topic**).
 */
const renderEdit = async (realm: Realm, content: string, topic: string, editor: User): Promise<RenderedEdit> => {
  const result = await renderContent(realm, content, topic, {
    groups: () => RealmGroups.load(realm.id),
    linkifiers: linkifiersStore.readLinkifierList(realm.id).then((list) => list.linkifiers),
    translateEmoticons: settingsOfUser(editor).translate_emoticons,
  });
  const wildcard = result.channelWildcardMentioned || result.topicWildcardMentioned;
  return {
    content,
    html: result.html,
    hasLink: result.hasLink,
    isMeMessage: /^\/me( |$)/.test(content),
    mentionFlagsOf: (userId) => [
      ...(result.mentionedUserIds.includes(userId) || result.mentionedGroupIds.some((g) => result.groups!.isMember(g, userId))
        ? ['mentioned']
        : []),
      ...(wildcard ? ['wildcard_mentioned'] : []),
    ],
  };
};

const EMPTY_TOPIC_ALIASES = ['general chat', '(no topic)'];

/**
 * Upstream's check_update_message, in its order: access for modification; with content,
 * checkCanEditContent; the topic stripped ("general chat" names the empty topic) and dropped when
 * unchanged, and a `stream_id` naming the message's own channel dropped; then the payload
 * ("Nothing to change", "Direct messages cannot be moved to channels.", "Direct messages cannot
 * have topics.", "Invalid propagate_mode without topic edit", "General chat cannot be marked as
 * resolved", "Cannot change message content while changing channel", a stale
 * `prev_content_sha256`); the destination channel ("Invalid channel ID" unless the user may read
 * it) and its topics policy; checkCanChangeTopic; checkCanMoveToChannel; for change_all by a
 * non-moderator, that every message of the topic is within the move limits
 * (MOVE_MESSAGES_TIME_LIMIT_EXCEEDED); and the destination's can_create_topic_group for a new
 * topic. A move to another channel takes only the messages the user may read (with protected
 * history, those they received). Then doUpdateMessage.
 */
export const checkUpdateMessage = async (realm: Realm, user: User, messageId: number, req: MessageEditRequest): Promise<void> => {
  const now = nowSeconds();
  const { message, channel } = await accessEditableMessage(user, messageId, { modifying: true });
  if (req.content !== undefined) checkCanEditContent(realm, user, message, now);
  let topic = req.topic === undefined ? undefined : pyStrip(req.topic);
  if (topic !== undefined && EMPTY_TOPIC_ALIASES.includes(topic)) topic = '';
  if (topic !== undefined && topic === message.topic) topic = undefined;
  let streamId = req.streamId;
  if (streamId !== undefined && streamId === message.streamId) streamId = undefined;

  if (req.content === undefined && topic === undefined && streamId === undefined) throw new BadRequestError('Nothing to change');
  if (message.streamId === null && streamId !== undefined) throw new BadRequestError('Direct messages cannot be moved to channels.');
  if (message.streamId === null && topic !== undefined) throw new BadRequestError('Direct messages cannot have topics.');
  if (req.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw new BadRequestError('Invalid propagate_mode without topic edit');
  }
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}general chat`) {
    throw new BadRequestError('General chat cannot be marked as resolved');
  }
  if (streamId !== undefined && req.content !== undefined)
    throw new BadRequestError('Cannot change message content while changing channel');
  if (req.prevContentSha256 !== undefined && req.prevContentSha256 !== createHash('sha256').update(message.content).digest('hex')) {
    throw new ApiError("'prev_content_sha256' value does not match the expected value.", {
      code: ErrorCode.EXPECTATION_MISMATCH,
      data: { field_name: 'prev_content_sha256' },
    });
  }

  let movedIds: number[] = [message.id];
  let links: TopicLink[] = [];
  let destination: Channel | null = null;
  let resolveToggle = false;
  if ((topic !== undefined || streamId !== undefined) && channel !== null) {
    if (topic !== undefined) topic = normalizeTopic(topic, realm.limits.max_topic_length);
    if (streamId !== undefined) destination = await accessChannelById(user, streamId, 'Invalid channel ID');
    const target = destination ?? channel;
    const targetTopic = topic ?? message.topic;
    checkTopicPolicy(target, targetTopic, realm);
    const groups = await RealmGroups.load(realm.id);
    resolveToggle = topic !== undefined && isResolveToggle(message.topic, topic);
    if (topic !== undefined) checkCanChangeTopic(realm, groups, user, channel, message, { resolveToggle, now });
    if (destination !== null) checkCanMoveToChannel(realm, groups, user, channel, destination, message, now);
    movedIds = await topicMessagesToMove(message, req.propagateMode);
    if (destination !== null && !channel.historyPublicToSubscribers) movedIds = await receivedByUser(user, movedIds, message.id);
    if (req.propagateMode === 'change_all' && !resolveToggle) {
      await checkChangeAllWithinLimit(realm, user, movedIds, now, { topic: topic !== undefined, channel: destination !== null });
    }
    if (!resolveToggle) await checkNewTopic(user, target, targetTopic, groups);
    if (topic !== undefined) links = topicLinks(topic, sortLinkifiers((await linkifiersStore.readLinkifierList(realm.id)).linkifiers));
  }
  const rendered =
    req.content === undefined
      ? undefined
      : await renderEdit(realm, normalizeMessageContent(stripBody(req.content) || '(deleted)'), topic ?? message.topic, user);
  await doUpdateMessage(realm, user, {
    message,
    channel,
    destination,
    movedIds,
    topic,
    topicLinks: links,
    propagateMode: req.propagateMode,
    resolveToggle,
    rendered,
    notifyNewTopic: req.sendNotificationToNewThread,
    notifyOldTopic: req.sendNotificationToOldThread,
    now,
  });
};

/** The messages a topic change moves: this one, it and later ones of the topic, or the whole topic. */
const topicMessagesToMove = async (message: Message, mode: PropagateMode): Promise<number[]> => {
  if (mode === 'change_one' || message.streamId === null) return [message.id];
  const ids = await editsStore.listMessageIdsOfTopic(message.streamId, message.topic);
  const moved = mode === 'change_all' ? ids : ids.filter((id) => id >= message.id);
  return [...new Set([...moved, message.id])].sort((a, b) => a - b);
};

/** Of `ids`, those the user received (has a row of), and always `accessedId`, which they were allowed to act on. */
const receivedByUser = async (user: User, ids: number[], accessedId: number): Promise<number[]> => {
  const rows = await messagesStore.getUserMessagesByIds(user.id, ids);
  const received = new Set([accessedId, ...rows.map((r) => r.messageId)]);
  return ids.filter((id) => received.has(id));
};

/**
 * Upstream's change_all check for a non-moderator: every message of the topic must be within the
 * move limits (withinMoveLimits), else "You only have permission to move the {n}/{total} most
 * recent messages in this topic." with the first id that may move.
 */
const checkChangeAllWithinLimit = async (
  realm: Realm,
  user: User,
  ids: number[],
  now: number,
  moves: { topic: boolean; channel: boolean },
): Promise<void> => {
  const messages = await messagesStore.getMessagesByIds(realm.id, ids);
  const allowed = messages.filter((m) => withinMoveLimits(realm, user, m.dateSent, now, moves)).sort((a, b) => a.id - b.id);
  if (allowed.length === messages.length) return;
  throw new ApiError(`You only have permission to move the ${allowed.length}/${messages.length} most recent messages in this topic.`, {
    code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED' as ErrorCode,
    data: {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: messages.length,
      total_messages_allowed_to_move: allowed.length,
    },
  });
};

type UpdatePlan = {
  message: Message;
  channel: Channel | null;
  /** The channel the messages move to, or null when they stay in theirs. */
  destination: Channel | null;
  movedIds: number[];
  topic: string | undefined;
  /** The new topic's links (upstream's topic_links), stored on every moved message. */
  topicLinks: TopicLink[];
  propagateMode: PropagateMode;
  resolveToggle: boolean;
  rendered: RenderedEdit | undefined;
  notifyNewTopic: boolean;
  notifyOldTopic: boolean;
  now: number;
};

/** Writes one message's edit with its history entry, re-reading and retrying when a concurrent edit won. */
const writeEditOf = async (
  realmId: number,
  first: Message,
  changes: (m: Message) => { fields: Parameters<typeof editsStore.writeMessageEdit>[1]; entry: EditHistoryEntry },
): Promise<Message | undefined> => {
  let m: Message | undefined = first;
  for (let attempt = 0; m && attempt < 5; attempt += 1) {
    const { fields, entry } = changes(m);
    if (await editsStore.writeMessageEdit(m, fields, [entry, ...(m.editHistory ?? [])])) return m;
    m = await editsStore.getEditableMessage(realmId, m.id);
  }
  if (m) throw new Error(`message ${first.id}: edits kept conflicting`);
  return undefined;
};

/**
 * Writes the edit: the target message's content (re-rendered), topic and channel with a history
 * entry (`prev_content`/`prev_rendered_content`, `prev_topic`/`topic`, `prev_stream`/`stream`), the
 * other moved messages' topic and channel with a move entry each (only those still in the old
 * conversation); the rows' conversation (the unread summary and the narrows read it) and, after a
 * content edit, their mention flags; the old and new topics' summaries. A move to another channel
 * also removes the rows of users who were subscribed to the old channel and are not to the new one,
 * and into a channel with protected history gives its subscribers read rows (moveAudience). Emits,
 * in upstream's order: `delete_message` to the users who lose access; `update_message` to every
 * row holder who keeps theirs and, for channels whose history subscribers share, every subscriber
 * of the new channel and of the old one (with `["read"]` when they have no row), each with their
 * own flags; the topic policies' events when the whole topic moved; Notification Bot's notices.
 */
const doUpdateMessage = async (realm: Realm, editor: User, plan: UpdatePlan): Promise<void> => {
  const { message, channel, destination, topic, rendered, now } = plan;
  const realmId = editor.realmId;
  const origTopic = message.topic;
  const moved = channel !== null && (topic !== undefined || destination !== null);
  const target = destination ?? channel;
  const targetTopic = topic ?? origTopic;
  // Before anything moves: whether the new topic has messages of its own (the policies merge then).
  const targetHadMessages =
    moved && target !== null ? await editsStore.hasTopicMessagesOtherThan(target.id, targetTopic, plan.movedIds) : false;
  const moveFields = (m: Message) => ({
    fields: {
      ...(topic !== undefined ? { topic, topicLinks: plan.topicLinks } : {}),
      ...(destination !== null ? { streamId: destination.id } : {}),
    },
    entry: {
      user_id: editor.id,
      timestamp: now,
      ...(topic !== undefined ? { prev_topic: m.topic, topic } : {}),
      ...(destination !== null && m.streamId !== null ? { prev_stream: m.streamId, stream: destination.id } : {}),
    },
  });
  const written = await writeEditOf(realmId, message, (m) => {
    const { fields, entry } = moveFields(m);
    if (rendered) {
      Object.assign(entry, { prev_content: m.content, prev_rendered_content: m.renderedContent ?? '' });
      Object.assign(fields, { content: rendered.content, renderedContent: rendered.html, hasLink: rendered.hasLink });
    }
    return { fields, entry: entry as EditHistoryEntry };
  });
  if (!written) throw new BadRequestError('Invalid message(s)');
  // Each moved message as it is now, by id (its topic keeps its own spelling when only the channel changes).
  const movedMessages = new Map<number, Message>([[message.id, { ...message, topic: targetTopic, streamId: target?.id ?? null }]]);
  const others = plan.movedIds.filter((id) => id !== message.id);
  if (moved && others.length > 0) {
    const messages = await messagesStore.getMessagesByIds(realmId, others);
    await mapLimited(messages, MOVE_CONCURRENCY, async (other) => {
      const full = await editsStore.getEditableMessage(realmId, other.id);
      if (!full || full.streamId !== channel.id || full.topic.toLowerCase() !== origTopic.toLowerCase()) return;
      const done = await writeEditOf(realmId, full, (m) => {
        const { fields, entry } = moveFields(m);
        return { fields, entry: entry as EditHistoryEntry };
      });
      if (done) movedMessages.set(done.id, { ...done, topic: topic ?? done.topic, streamId: target!.id });
    });
  }
  const movedIds = plan.movedIds.filter((id) => movedMessages.has(id));

  const rowsByMessage = new Map(
    await mapLimited(
      movedIds,
      MOVE_CONCURRENCY,
      async (id) => [id, await editsStore.listRowsOfMessage(id, await rowHolderCandidates({ ...message, id }))] as const,
    ),
  );
  const audience =
    destination !== null && channel !== null
      ? await moveAudience(realmId, channel, destination, [...new Set([...rowsByMessage.values()].flat().map((r) => r.userId))])
      : undefined;
  if (moved && channel !== null && target !== null) {
    await mapLimited(movedIds, MOVE_CONCURRENCY, async (id) => {
      const holders = rowsByMessage.get(id)!.map((r) => r.userId);
      const kept = audience ? holders.filter((u) => !audience.losingRows.has(u)) : holders;
      await editsStore.setTopicOfRows(id, kept, movedMessages.get(id)!.topic, destination?.id);
      if (audience) {
        await editsStore.deleteRowsOfMessage(
          id,
          holders.filter((u) => audience.losingRows.has(u)),
        );
        const had = new Set(holders);
        await editsStore.addReadRows(
          movedMessages.get(id)!,
          audience.gainingRows.filter((u) => !had.has(u)),
        );
      }
    });
    await editsStore.moveTopicSummary(realmId, channel.id, origTopic, targetTopic, movedIds, target.id);
    if (!target.historyPublicToSubscribers) {
      // Each holder's own summary of the new topic (the topics endpoint of a protected channel reads those).
      const holders = new Set([...rowsByMessage.values()].flat().map((r) => r.userId));
      for (const id of audience?.losingRows ?? []) holders.delete(id);
      for (const id of audience?.gainingRows ?? []) holders.add(id);
      await messagesStore.raiseReceivedTopics(realmId, [...holders], {
        channelId: target.id,
        topic: targetTopic,
        maxMessageId: Math.max(...movedIds),
      });
    }
  }
  const targetRows = (rowsByMessage.get(message.id) ?? []).filter((r) => !audience?.losingRows.has(r.userId));
  const flagsOf = new Map(targetRows.map((r) => [r.userId, r.flags]));
  if (rendered) {
    await Promise.all(
      [...flagsOf.keys()].map(async (userId) => {
        const flags = await editsStore.setMentionFlagsOfRow(userId, message.id, rendered.mentionFlagsOf(userId));
        if (flags) flagsOf.set(userId, flags);
      }),
    );
  }

  if (audience && channel !== null && audience.losingAccess.length > 0) {
    const removed: DeleteMessageEvent = {
      type: 'delete_message',
      message_ids: movedIds,
      message_type: 'stream',
      stream_id: channel.id,
      topic: origTopic,
    };
    await sendDeleteMessageEvents(realmId, removed, audience.losingAccess);
  }
  // Whether every message of the old topic the editor could see moved (upstream's
  // moved_all_visible_messages): then the topic policies follow, before the update is sent.
  const from = channel !== null ? { channel, topic: origTopic } : undefined;
  const to = target !== null ? { channel: target, topic: targetTopic } : undefined;
  const movedAll =
    !moved || channel === null
      ? undefined
      : plan.propagateMode === 'change_all' || !(await hasVisibleMessages(editor, channel, origTopic, movedIds));
  if (movedAll && from && to) {
    await doMoveTopicPolicies(realmId, { from, to, targetHadMessages, losingAccess: new Set(audience?.losingAccess ?? []) });
  }
  const event: UpdateMessageEvent = {
    type: 'update_message',
    user_id: editor.id,
    edit_timestamp: now,
    message_id: message.id,
    message_ids: movedIds,
    rendering_only: false,
    flags: [],
    ...(channel !== null ? { stream_name: channel.name, stream_id: channel.id } : {}),
    ...(moved ? { propagate_mode: plan.propagateMode } : {}),
    ...(destination !== null ? { orig_subject: origTopic, new_stream_id: destination.id } : {}),
    ...(topic !== undefined ? { orig_subject: origTopic, subject: topic, topic_links: plan.topicLinks } : {}),
    ...(rendered
      ? {
          orig_content: message.content,
          orig_rendered_content: message.renderedContent ?? '',
          content: rendered.content,
          rendered_content: rendered.html,
          is_me_message: rendered.isMeMessage,
        }
      : {}),
  };
  const receivers = new Map(flagsOf);
  if (channel !== null && channel.historyPublicToSubscribers) {
    const subscribers = audience ? audience.notifiedSubscribers : await channelsStore.listSubscriberIdsOfChannel(channel.id);
    for (const id of subscribers) if (!receivers.has(id)) receivers.set(id, ['read']);
  }
  await sendEventPerRecipient(
    editor.realmId,
    [...receivers].map(([userId, flags]) => ({ userId, event: { ...event, flags } })),
  );
  if (movedAll === undefined || !from || !to || target === null) return;
  await sendMessagesMovedNotices(realm, {
    actingUser: editor,
    messageId: message.id,
    from,
    to,
    movedCount: movedIds.length,
    movedAll,
    newTopicHadMessages: await hasVisibleMessages(editor, target, targetTopic, movedIds),
    toNewTopic: plan.notifyNewTopic && (destination !== null || (topic !== undefined && !plan.resolveToggle)),
    toOldTopic: plan.notifyOldTopic,
  });
};

/**
 * A deletion of several messages: the whole event for queues with bulk_message_deletion, and one
 * event per message for the others (lib/events/filters/delete-message.ts), as upstream's queues
 * rewrite it per client.
 */
export const sendDeleteMessageEvents = async (realmId: number, event: DeleteMessageEvent, users: number[]): Promise<void> => {
  if (event.message_ids.length === 1) {
    await sendEvent(realmId, event, { users });
    return;
  }
  await sendEvent(realmId, { ...event, for_queues: 'bulk' }, { users });
  await mapLimited(event.message_ids, MOVE_CONCURRENCY, (id) =>
    sendEvent(realmId, { ...event, message_ids: [id], for_queues: 'single' }, { users }),
  );
};

/**
 * Whether a topic has messages other than `excludeIds` that the user may read: any, in a channel
 * whose history the user may read; with protected history, only those they received.
 */
const hasVisibleMessages = async (user: User, channel: Channel, topic: string, excludeIds: number[]): Promise<boolean> => {
  const excluded = new Set(excludeIds);
  const ids = (await editsStore.listMessageIdsOfTopic(channel.id, topic)).filter((id) => !excluded.has(id));
  if (ids.length === 0) return false;
  if (channel.historyPublicToSubscribers) return true;
  return (await messagesStore.getUserMessagesByIds(user.id, ids)).length > 0;
};

type MoveAudience = {
  /** Row holders whose rows go: subscribed to the old channel (now or before) and not to the new one. */
  losingRows: Set<number>;
  /** Who is told the messages are deleted: those of losingRows who may not read the new channel. */
  losingAccess: number[];
  /** Who gets a read row: the new channel's subscribers, when its history is protected. */
  gainingRows: number[];
  /** The subscribers told of the move without a row (shared-history old channel). */
  notifiedSubscribers: number[];
};

/**
 * Who a move from `source` to `destination` takes the messages from and gives them to, as
 * upstream's do_update_message decides. Upstream's "every subscription of the old channel, active
 * or not" is here its active subscribers and the row holders with any subscription row of it
 * (one batch read of their old and new subscriptions); a deactivated user still subscribed to the
 * new channel keeps their rows. A move to a public channel takes access only from guests; to a
 * private one from everyone not subscribed to it. Into protected history, every current
 * subscriber gets a row. Guests subscribed to the new channel but not the old one are not told.
 */
const moveAudience = async (realmId: number, source: Channel, destination: Channel, holderIds: number[]): Promise<MoveAudience> => {
  const [oldSubs, newSubs] = await Promise.all([
    channelsStore.listSubscriberIdsOfChannel(source.id),
    channelsStore.listSubscriberIdsOfChannel(destination.id),
  ]);
  const oldActive = new Set(oldSubs);
  const newActive = new Set(newSubs);
  const unknown = holderIds.filter((id) => !oldActive.has(id) && !newActive.has(id));
  const [oldRows, newRows] = await Promise.all([
    channelsStore.getSubscriptionsOfUsers(source.id, unknown),
    channelsStore.getSubscriptionsOfUsers(destination.id, unknown),
  ]);
  const oldAll = new Set([...oldSubs, ...oldRows.map((s) => s.userId)]);
  const newCurrent = new Set([...newSubs, ...newRows.filter((s) => s.active).map((s) => s.userId)]);
  const losing = [...oldAll].filter((id) => !newCurrent.has(id));
  // Who is a guest, from the role groups (in role:everyone, not in role:members), without reading users.
  const groups = await RealmGroups.load(realmId);
  const [everyone, members] = [groups.systemGroup('role:everyone').id, groups.systemGroup('role:members').id];
  const isGuestId = (id: number) => groups.isMember(everyone, id) && !groups.isMember(members, id);
  const losingAccess = destination.inviteOnly ? losing : losing.filter(isGuestId);
  const lost = new Set(losingAccess);
  const newOnlyGuests = new Set(newSubs.filter((id) => !oldActive.has(id) && isGuestId(id)));
  const notifiedSubscribers = [
    ...newSubs.filter((id) => !lost.has(id) && !newOnlyGuests.has(id)),
    ...oldSubs.filter((id) => !newActive.has(id) && !lost.has(id)),
  ];
  return {
    losingRows: new Set(losing),
    losingAccess: losingAccess.sort((a, b) => a - b),
    gainingRows: destination.historyPublicToSubscribers ? [] : [...newCurrent].sort((a, b) => a - b),
    notifiedSubscribers,
  };
};
