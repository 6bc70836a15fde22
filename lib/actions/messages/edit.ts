// Editing, moving within a channel and deleting messages, and reading their edit history: upstream's
// zerver/views/message_edit.py, zerver/actions/message_edit.py and zerver/actions/message_delete.py.
// The rules of who may do what and until when are lib/access/message-edit.ts; the writes are
// lib/store/message-edits.ts.
import { createHash } from 'node:crypto';
import { accessChannelById, subscriberViewers } from '../../access/channels';
import {
  checkCanChangeTopic,
  checkCanDeleteMessage,
  checkCanEditContent,
  checkCanMoveToChannel,
  withinMoveLimits,
} from '../../access/message-edit';
import { RealmGroups } from '../../access/user-groups';
import { nowSeconds } from '../../clock';
import { mapLimited } from '../../concurrency';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import { sendEvent, sendEventPerRecipient } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import type { DeleteMessageEvent, UpdateMessageEvent } from '../../models/event';
import { normalizeMessageContent, normalizeTopic, pyStrip, stripBody } from '../../models/message-content';
import {
  type EditHistoryEntry,
  type HistorySnapshot,
  historySnapshots,
  isResolveToggle,
  messageEditSettings,
  type PropagateMode,
  RESOLVED_TOPIC_PREFIX,
  visibleEditHistory,
} from '../../models/message-edit';
import { sortLinkifiers } from '../../models/linkifier';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { renderMessage, topicLinks, type TopicLink } from '../../render';
import { renderContent } from './render';
import { sendMessagesMovedNotices } from '../channels/notices';
import { config } from '../../config';
import { startJob } from '../../store/jobs';
import * as realmsStore from '../../store/realms';
import { checkNewTopic, checkTopicPolicy } from './send';
import { doMoveTopicPolicies } from '../channels/user-topics';
import * as channelsStore from '../../store/channels';
import { doStartPushNotificationsOfEdit, doStartPushRemovalsOfDeleted } from '../push/notifications';
import { accessMessage, messageActionAudience, rowHolderCandidates } from '../../access/messages';
import * as linkifiersStore from '../../store/linkifiers';
import * as editsStore from '../../store/message-edits';
import * as messagesStore from '../../store/messages';
import * as usersStore from '../../store/users';

/** A message the user may act on, with the user's row (if received) and its channel (null for a direct message). */
export type AccessedMessage = { message: Message; flags: string[] | undefined; channel: Channel | null };

/** How many moved messages one batch (the request's or a messageMove run's) writes at a time (their rows, then their items). */
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
 * lib/actions/messages/delivery.ts) is waited for, up to FANOUT_WAIT_MS, so that an edit or a
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
  await doStartPushRemovalsOfDeleted(message.realmId, message.id, holders);
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
    receivedOnly: destination !== null && channel !== null && !channel.historyPublicToSubscribers,
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
  // No limit applies to this user (a moderator, or no limit set) when even the oldest possible message
  // may move: then no message needs reading (a large topic's request stays bounded).
  if (withinMoveLimits(realm, user, 0, now, moves)) return;
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
  /** Only the messages the editor received move (to another channel, out of one with protected history). */
  receivedOnly: boolean;
  now: number;
};

/**
 * Writes one message's edit with its history entry, re-reading and retrying when a concurrent edit
 * won. `applies`: whether the edit still applies to the message as re-read (a moved message that
 * a concurrent move already took is left alone); undefined when the message is gone or no longer applies.
 */
const writeEditOf = async (
  realmId: number,
  first: Message,
  changes: (m: Message) => { fields: Parameters<typeof editsStore.writeMessageEdit>[1]; entry: EditHistoryEntry },
  applies: (m: Message) => boolean = () => true,
): Promise<Message | undefined> => {
  let m: Message | undefined = first;
  for (let attempt = 0; m && applies(m) && attempt < 5; attempt += 1) {
    const { fields, entry } = changes(m);
    if (await editsStore.writeMessageEdit(m, fields, [entry, ...(m.editHistory ?? [])])) return m;
    m = await editsStore.getEditableMessage(realmId, m.id);
  }
  if (m && applies(m)) throw new Error(`message ${first.id}: edits kept conflicting`);
  return undefined;
};

/** The `update_message` event of an edit of `messageIds` (`message` the one the edit names), without the receiver's flags. */
const updateEventOf = (
  editor: User,
  now: number,
  message: Message,
  channel: Channel | null,
  messageIds: number[],
  move: Pick<MoveContext, 'destination' | 'origTopic' | 'topic' | 'topicLinks' | 'propagateMode'> | undefined,
  rendered: RenderedEdit | undefined,
): UpdateMessageEvent => ({
  type: 'update_message',
  user_id: editor.id,
  edit_timestamp: now,
  message_id: message.id,
  message_ids: messageIds,
  rendering_only: false,
  flags: [],
  ...(channel !== null ? { stream_name: channel.name, stream_id: channel.id } : {}),
  ...(move ? { propagate_mode: move.propagateMode } : {}),
  ...(move && move.destination !== null ? { orig_subject: move.origTopic, new_stream_id: move.destination.id } : {}),
  ...(move && move.topic !== undefined ? { orig_subject: move.origTopic, subject: move.topic, topic_links: move.topicLinks } : {}),
  ...(rendered
    ? {
        orig_content: message.content,
        orig_rendered_content: message.renderedContent ?? '',
        content: rendered.content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
      }
    : {}),
});

/**
 * Sends an `update_message` to every row holder of the named message (`flagsOf`, each with their
 * own flags) and, for a channel whose history subscribers share, to its subscribers without a row
 * (`["read"]`): `subscribers` when a move to another channel decided them (moveAudience), else the
 * channel's.
 */
const sendUpdateEvent = async (
  realmId: number,
  event: UpdateMessageEvent,
  flagsOf: Map<number, string[]>,
  channel: Channel | null,
  subscribers?: number[],
): Promise<void> => {
  const receivers = new Map(flagsOf);
  if (channel !== null && channel.historyPublicToSubscribers) {
    for (const id of subscribers ?? (await channelsStore.listSubscriberIdsOfChannel(channel.id))) {
      if (!receivers.has(id)) receivers.set(id, ['read']);
    }
  }
  await sendEventPerRecipient(
    realmId,
    [...receivers].map(([userId, flags]) => ({ userId, event: { ...event, flags } })),
  );
};

/**
 * Writes the edit. Without a topic or channel change (a content edit): the message's content,
 * re-rendered, with a history entry (`prev_content`/`prev_rendered_content`), its rows' mention
 * flags, and one `update_message` to its row holders (and subscribers, see sendUpdateEvent).
 * A move: doMoveMessages.
 */
const doUpdateMessage = async (realm: Realm, editor: User, plan: UpdatePlan): Promise<void> => {
  const { message, channel, rendered } = plan;
  if (channel !== null && (plan.topic !== undefined || plan.destination !== null)) return doMoveMessages(realm, editor, plan);
  if (!rendered) throw new Error('an edit with nothing to write');
  const written = await writeEditOf(realm.id, message, (m) => ({
    fields: { content: rendered.content, renderedContent: rendered.html, hasLink: rendered.hasLink },
    entry: { user_id: editor.id, timestamp: plan.now, prev_content: m.content, prev_rendered_content: m.renderedContent ?? '' },
  }));
  if (!written) throw new BadRequestError('Invalid message(s)');
  const rows = await editsStore.listRowsOfMessage(message.id, await rowHolderCandidates(message));
  const flagsOf = await setMentionFlags(message, new Map(rows.map((r) => [r.userId, r.flags])), rendered);
  await sendUpdateEvent(realm.id, updateEventOf(editor, plan.now, message, channel, [message.id], undefined, rendered), flagsOf, channel);
};

/**
 * Sets each row holder's mention flags after a content edit, and hands whoever the edit newly
 * mentions to the push job; their flags as they now are.
 */
const setMentionFlags = async (
  message: Message,
  flagsOf: Map<number, string[]>,
  rendered: RenderedEdit,
): Promise<Map<number, string[]>> => {
  const out = new Map(flagsOf);
  await Promise.all(
    [...flagsOf.keys()].map(async (userId) => {
      const flags = await editsStore.setMentionFlagsOfRow(userId, message.id, rendered.mentionFlagsOf(userId));
      if (flags) out.set(userId, flags);
    }),
  );
  await doStartPushNotificationsOfEdit(message, flagsOf, out);
  return out;
};

/** What every batch of a move knows: the request's and each run of its messageMove job's. */
type MoveContext = {
  realm: Realm;
  editor: User;
  /** The message the edit names, as the request read it (before it moved): the events' message_id. */
  message: Message;
  /** The channel the messages leave. */
  channel: Channel;
  /** The channel they move to, or null when they stay in theirs. */
  destination: Channel | null;
  origTopic: string;
  /** The new topic, or undefined when it does not change. */
  topic: string | undefined;
  topicLinks: TopicLink[];
  propagateMode: PropagateMode;
  resolveToggle: boolean;
  notifyNewTopic: boolean;
  notifyOldTopic: boolean;
  now: number;
  /** Before anything moved: whether the new topic had messages of its own (the topic policies merge then). */
  targetHadMessages: boolean;
  /** Before anything moved: whether it had messages the editor may read (the notices' wording). */
  newTopicHadMessages: boolean;
};

/** The fields of a move's context that a job payload carries as they are (the rest go by id). */
const PLAIN_MOVE_FIELDS = [
  'origTopic',
  'topicLinks',
  'propagateMode',
  'resolveToggle',
  'notifyNewTopic',
  'notifyOldTopic',
  'now',
  'targetHadMessages',
  'newTopicHadMessages',
] as const;
type PlainMoveFields = (typeof PLAIN_MOVE_FIELDS)[number];

/** The plain fields of a move's context (or of its job's payload), copied. */
const plainMoveFields = (from: Pick<MoveContext, PlainMoveFields>): Pick<MoveContext, PlainMoveFields> =>
  Object.fromEntries(PLAIN_MOVE_FIELDS.map((k) => [k, from[k]])) as Pick<MoveContext, PlainMoveFields>;

/** What the messageMove job is given: the move's context by ids, and which messages are left for it. */
export type MoveJob = Pick<MoveContext, PlainMoveFields> & {
  realmId: number;
  editorId: number;
  messageId: number;
  channelId: number;
  destinationId: number | null;
  topic: string | null;
  /**
   * What is left: the messages still in the old channel and topic (inOldConversation) with ids
   * from firstId to lastId, only those the editor received when receivedOnly. Each run reads them
   * again, so a retried run finds what an earlier attempt moved gone.
   */
  firstId: number;
  lastId: number;
  receivedOnly: boolean;
  /** How many messages the whole move takes: the count Notification Bot's notices give. */
  total: number;
};

/** Whether a message is still where a move takes it from (not moved yet, by this move or another). */
const inOldConversation = (ctx: MoveContext, m: Message): boolean =>
  m.streamId === ctx.channel.id &&
  m.topic.toLowerCase() === ctx.origTopic.toLowerCase() &&
  !(ctx.destination === null && ctx.topic !== undefined && m.topic === ctx.topic);

/**
 * A move of a topic's messages (or one message) within a channel or to another. The request moves
 * the edited message and, of a larger move, up to config.moveInlineMessages of the others
 * (MOVE_INLINE_MESSAGES, so it stays well inside its 10 s timeout: docs/data-model.md, "Moving a
 * topic"); the messageMove job (doMessageMove) moves the rest, config.moveJobMessages per run,
 * each run starting the next. Every batch is moveBatch; the last one also moves the topic policies
 * and posts the notices.
 */
const doMoveMessages = async (realm: Realm, editor: User, plan: UpdatePlan): Promise<void> => {
  const { message, destination, topic } = plan;
  const channel = plan.channel!;
  const target = destination ?? channel;
  const targetTopic = topic ?? message.topic;
  // Before anything moves: whether the new topic has messages of its own, and ones the editor sees.
  const [targetHadMessages, newTopicHadMessages] = await Promise.all([
    editsStore.hasTopicMessagesOtherThan(target.id, targetTopic, plan.movedIds),
    hasVisibleMessages(editor, target, targetTopic, plan.movedIds),
  ]);
  const ctx: MoveContext = {
    realm,
    editor,
    message,
    channel,
    destination,
    origTopic: message.topic,
    topic,
    topicLinks: plan.topicLinks,
    propagateMode: plan.propagateMode,
    resolveToggle: plan.resolveToggle,
    notifyNewTopic: plan.notifyNewTopic,
    notifyOldTopic: plan.notifyOldTopic,
    now: plan.now,
    targetHadMessages,
    newTopicHadMessages,
  };
  const others = plan.movedIds.filter((id) => id !== message.id);
  const inline = others.slice(0, config.moveInlineMessages() - 1);
  const rest = others.slice(inline.length);
  const batch = [message, ...(await editsStore.getEditableMessages(realm.id, inline)).filter((m) => inOldConversation(ctx, m))];
  const { movedIds, finishing } = await moveBatch(ctx, batch, { rendered: plan.rendered, last: rest.length === 0 });
  if (finishing) {
    await finishMove(ctx, movedIds, movedIds.length);
    return;
  }
  const job: MoveJob = {
    ...plainMoveFields(ctx),
    realmId: realm.id,
    editorId: editor.id,
    messageId: message.id,
    channelId: channel.id,
    destinationId: destination?.id ?? null,
    topic: topic ?? null,
    firstId: rest[0],
    lastId: rest[rest.length - 1],
    receivedOnly: plan.receivedOnly,
    total: plan.movedIds.length,
  };
  await startJob('messageMove', job);
};

/**
 * The messageMove job: one batch of what a move left (MoveJob), then the next run for the rest,
 * or, after the last batch, the move's end (finishMove) once, claimed by a marker
 * (editsStore.claimMoveFinish) so that a retried or replayed run does not post the notices again.
 * Idempotent: a run reads what is left from the old topic itself, so a retry moves only what an
 * earlier attempt did not, and sends events only for what it moved.
 */
export const doMessageMove = async (job: MoveJob): Promise<void> => {
  const [realm, editor, channel, destination, message] = await Promise.all([
    realmsStore.get(job.realmId),
    usersStore.get(job.realmId, job.editorId),
    channelsStore.getChannel(job.realmId, job.channelId),
    job.destinationId === null ? Promise.resolve(null) : channelsStore.getChannel(job.realmId, job.destinationId),
    editsStore.getEditableMessage(job.realmId, job.messageId),
  ]);
  if (!realm || !editor || !channel || destination === undefined) {
    // The organization, the editor or a channel is gone: nothing left to move it by.
    console.warn(
      JSON.stringify({ level: 'warn', msg: 'message move abandoned: its context is gone', job: { ...job, topicLinks: undefined } }),
    );
    return;
  }
  const ctx: MoveContext = {
    realm,
    editor,
    // The events name the edited message as it was before the move. Deleted since, it has no rows:
    // the batches' updates then reach only the channels' subscribers (shared history).
    message: {
      ...(message ?? { id: job.messageId, realmId: realm.id, senderId: editor.id, dmUserIds: [], content: '', dateSent: job.now }),
      streamId: channel.id,
      topic: job.origTopic,
    },
    channel,
    destination,
    ...plainMoveFields(job),
    topic: job.topic ?? undefined,
  };
  let candidates = (await editsStore.listMessageIdsOfTopic(channel.id, job.origTopic)).filter(
    (id) => id >= job.firstId && id <= job.lastId,
  );
  if (job.receivedOnly) {
    const received = new Set((await messagesStore.getUserMessagesByIds(editor.id, candidates)).map((r) => r.messageId));
    candidates = candidates.filter((id) => received.has(id));
  }
  // The topic index may still list messages just moved: each is read again, consistently.
  const size = config.moveJobMessages();
  const batch: Message[] = [];
  let examined = 0;
  while (batch.length < size && examined < candidates.length) {
    const chunk = candidates.slice(examined, examined + size - batch.length);
    examined += chunk.length;
    batch.push(...(await editsStore.getEditableMessages(realm.id, chunk)).filter((m) => inOldConversation(ctx, m)));
  }
  const more = examined < candidates.length;
  const { movedIds, finishing } = await moveBatch(ctx, batch, {
    last: !more,
    claim: () => editsStore.claimMoveFinish(realm.id, job.messageId, job.now),
  });
  if (more) {
    await startJob('messageMove', job);
    return;
  }
  if (finishing) await finishMove(ctx, movedIds, job.total);
};

/**
 * Moves one batch of a move: the messages' items (the topic and channel, a history entry each:
 * `prev_topic`/`topic`, `prev_stream`/`stream`), the rows' conversation (the unread summary and
 * the narrows read it) and, after a content edit, their mention flags; the old and new topics'
 * summaries. A move to another channel also removes the rows of users who were subscribed to the
 * old channel and are not to the new one, and into a channel with protected history gives its
 * subscribers read rows (moveAudience). `batch`: the items as read, still in the old conversation;
 * the edited message first in the request's batch, written first with its content (refused with
 * "Invalid message(s)" when gone). The rows of the others move before their items, so a retried
 * job run (which reads the items to know what is left) finishes a batch an earlier attempt left
 * half done. Emits, in upstream's order: `delete_message` to the users who lose access; with
 * `last`, the topic policies' events when the whole topic moved (before the update, as upstream);
 * `update_message` for the batch to every holder of a row of the edited message who keeps it and,
 * for channels whose history subscribers share, every subscriber of the new channel and of the old
 * one (with `["read"]` when they have no row), each with their own flags. Returns the ids moved,
 * and whether the move ends here (`last`, and `claim` won when given): the caller then posts the notices.
 */
const moveBatch = async (
  ctx: MoveContext,
  batch: Message[],
  opts: { rendered?: RenderedEdit; last: boolean; claim?: () => Promise<boolean> },
): Promise<{ movedIds: number[]; finishing: boolean }> => {
  const { realm, editor, message, channel, destination, topic, rendered } = { ...ctx, rendered: opts.rendered };
  const realmId = realm.id;
  const target = destination ?? channel;
  const targetTopic = topic ?? ctx.origTopic;
  const moveFields = (m: Message) => ({
    fields: {
      ...(topic !== undefined ? { topic, topicLinks: ctx.topicLinks } : {}),
      ...(destination !== null ? { streamId: destination.id } : {}),
    },
    entry: {
      user_id: editor.id,
      timestamp: ctx.now,
      ...(topic !== undefined ? { prev_topic: m.topic, topic } : {}),
      ...(destination !== null && m.streamId !== null ? { prev_stream: m.streamId, stream: destination.id } : {}),
    },
  });
  const withEdited = batch[0]?.id === message.id;
  if (withEdited) {
    const written = await writeEditOf(realmId, batch[0], (m) => {
      const { fields, entry } = moveFields(m);
      if (rendered) {
        Object.assign(entry, { prev_content: m.content, prev_rendered_content: m.renderedContent ?? '' });
        Object.assign(fields, { content: rendered.content, renderedContent: rendered.html, hasLink: rendered.hasLink });
      }
      return { fields, entry: entry as EditHistoryEntry };
    });
    if (!written) throw new BadRequestError('Invalid message(s)');
  }
  // Each message as it is once moved (its topic keeps its own spelling when only the channel changes).
  const movedOf = (m: Message): Message => ({ ...m, topic: topic ?? m.topic, streamId: target.id });

  const rowsByMessage = new Map(
    await mapLimited(
      batch,
      MOVE_CONCURRENCY,
      async (m) => [m.id, await editsStore.listRowsOfMessage(m.id, await rowHolderCandidates(m))] as const,
    ),
  );
  const audience =
    destination !== null
      ? await moveAudience(realmId, channel, destination, [...new Set([...rowsByMessage.values()].flat().map((r) => r.userId))])
      : undefined;
  await mapLimited(batch, MOVE_CONCURRENCY, async (m) => {
    const holders = rowsByMessage.get(m.id)!.map((r) => r.userId);
    const kept = audience ? holders.filter((u) => !audience.losingRows.has(u)) : holders;
    await editsStore.setTopicOfRows(m.id, kept, movedOf(m).topic, destination?.id);
    if (audience) {
      await editsStore.deleteRowsOfMessage(
        m.id,
        holders.filter((u) => audience.losingRows.has(u)),
      );
      const had = new Set(holders);
      await editsStore.addReadRows(
        movedOf(m),
        audience.gainingRows.filter((u) => !had.has(u)),
      );
    }
  });
  const written = new Set(withEdited ? [message.id] : []);
  await mapLimited(withEdited ? batch.slice(1) : batch, MOVE_CONCURRENCY, async (m) => {
    const done = await writeEditOf(
      realmId,
      m,
      (current) => {
        const { fields, entry } = moveFields(current);
        return { fields, entry: entry as EditHistoryEntry };
      },
      (current) => inOldConversation(ctx, current),
    );
    if (done) written.add(m.id);
  });
  const movedIds = batch
    .map((m) => m.id)
    .filter((id) => written.has(id))
    .sort((a, b) => a - b);
  if (movedIds.length > 0) {
    await editsStore.moveTopicSummary(realmId, channel.id, ctx.origTopic, targetTopic, movedIds, target.id);
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
  // Each receiver's flags of the edited message (read again in a job's batch, which does not hold it).
  const editedRows = withEdited
    ? rowsByMessage.get(message.id)!
    : await editsStore.listRowsOfMessage(message.id, await rowHolderCandidates(message));
  let flagsOf = new Map(editedRows.filter((r) => !audience?.losingRows.has(r.userId)).map((r) => [r.userId, r.flags]));
  if (rendered && withEdited) flagsOf = await setMentionFlags(message, flagsOf, rendered);

  if (audience && audience.losingAccess.length > 0 && movedIds.length > 0) {
    const removed: DeleteMessageEvent = {
      type: 'delete_message',
      message_ids: movedIds,
      message_type: 'stream',
      stream_id: channel.id,
      topic: ctx.origTopic,
    };
    await sendDeleteMessageEvents(realmId, removed, audience.losingAccess);
  }
  // The move's end happens once: a job's last run claims it (a retried or replayed run finds it claimed).
  const finishing = opts.last && (opts.claim ? await opts.claim() : true);
  if (finishing) await moveTopicPolicies(ctx, movedIds, audience?.losingAccess ?? []);
  if (movedIds.length === 0) return { movedIds, finishing };
  await sendUpdateEvent(
    realmId,
    updateEventOf(editor, ctx.now, message, channel, movedIds, ctx, withEdited ? rendered : undefined),
    flagsOf,
    channel,
    audience?.notifiedSubscribers,
  );
  return { movedIds, finishing };
};

/**
 * Whether every message of the old topic the editor could see moved (upstream's
 * moved_all_visible_messages): with change_all, or when none is left besides `lastIds` (the last
 * batch, which the topic index may still list).
 */
const movedAllVisible = async (ctx: MoveContext, lastIds: number[]): Promise<boolean> =>
  ctx.propagateMode === 'change_all' || !(await hasVisibleMessages(ctx.editor, ctx.channel, ctx.origTopic, lastIds));

/** After the last batch, before its update: the topic policies follow the topic when it moved whole. */
const moveTopicPolicies = async (ctx: MoveContext, lastIds: number[], losingAccess: number[]): Promise<void> => {
  if (!(await movedAllVisible(ctx, lastIds))) return;
  await doMoveTopicPolicies(ctx.realm.id, {
    from: { channel: ctx.channel, topic: ctx.origTopic },
    to: { channel: ctx.destination ?? ctx.channel, topic: ctx.topic ?? ctx.origTopic },
    targetHadMessages: ctx.targetHadMessages,
    losingAccess: new Set(losingAccess),
  });
};

/** The end of a move, after its last batch's update: Notification Bot's notices, with the whole move's count. */
const finishMove = async (ctx: MoveContext, lastIds: number[], movedCount: number): Promise<void> => {
  await sendMessagesMovedNotices(ctx.realm, {
    actingUser: ctx.editor,
    messageId: ctx.message.id,
    from: { channel: ctx.channel, topic: ctx.origTopic },
    to: { channel: ctx.destination ?? ctx.channel, topic: ctx.topic ?? ctx.origTopic },
    movedCount,
    movedAll: await movedAllVisible(ctx, lastIds),
    newTopicHadMessages: ctx.newTopicHadMessages,
    toNewTopic: ctx.notifyNewTopic && (ctx.destination !== null || (ctx.topic !== undefined && !ctx.resolveToggle)),
    toOldTopic: ctx.notifyOldTopic,
  });
};

/**
 * The messageMove run an entry of the delivery dead-letter queue holds (Lambda's record of a run
 * that failed every attempt: its payload is requestPayload), or undefined for a delivery's entry.
 */
export const moveJobOfDeadLetter = (body: string): MoveJob | undefined => {
  const payload = (JSON.parse(body) as { requestPayload?: Partial<MoveJob> }).requestPayload;
  return payload && typeof payload.editorId === 'number' && typeof payload.firstId === 'number' ? (payload as MoveJob) : undefined;
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
