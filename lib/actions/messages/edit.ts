// Editing a message (upstream's zerver/views/message_edit.py update_message_backend and
// zerver/actions/message_edit.py): the checks in upstream's order, then a content edit here or a
// move (move.ts). The rules of who may edit what and until when are lib/access/message-edit.ts;
// the writes are lib/store/message-edits.ts.
import { createHash } from 'node:crypto';
import { accessChannelById } from '../../access/channels';
import { checkCanChangeTopic, checkCanEditContent, checkCanMoveToChannel } from '../../access/message-edit';
import { RealmGroups } from '../../access/user-groups';
import { nowSeconds } from '../../clock';
import { ApiError, BadRequestError, ErrorCode } from '../../errors';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import { normalizeMessageContent, normalizeTopic, pyStrip, stripBody } from '../../models/message-content';
import { isResolveToggle, type PropagateMode, RESOLVED_TOPIC_PREFIX } from '../../models/message-edit';
import { sortLinkifiers } from '../../models/linkifier';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { topicLinks, type TopicLink } from '../../render';
import { renderContent } from './render';
import { checkNewTopic, checkTopicPolicy } from './send';
import { rowHolderCandidates } from '../../access/messages';
import * as linkifiersStore from '../../store/linkifiers';
import * as userDataStore from '../../store/user-data';
import { usersAlertedBy } from '../../render/alert-words';
import * as editsStore from '../../store/message-edits';
import * as messagesStore from '../../store/messages';
import { accessEditableMessage } from '../../access/messages';
import { checkChangeAllWithinLimit } from '../../access/message-edit';
import { type RenderedEdit, type UpdatePlan, writeEditOf, updateEventOf, sendUpdateEvent, setMentionFlags } from './edit-writes';
import { doMoveMessages } from './move';

export type MessageEditRequest = {
  content?: string;
  prevContentSha256?: string;
  propagateMode: PropagateMode;
  sendNotificationToNewThread: boolean;
  sendNotificationToOldThread: boolean;
  streamId?: number;
  topic?: string;
};

/**
 * Renders edited content with what it refers to (renderContent: only the users, groups and
 * channels it names, and the organization's linkifiers), and says which mention flags each
 * recipient's row gets: `mentioned` for a user mentioned by name or through a mentioned group,
 * `wildcard_mentioned` for everyone on a channel wildcard (@**all**, @**everyone**, @**channel**,
 * @**stream**) or a topic wildcard (@**topic**); and `has_alert_word` for a user whose alert word
 * the new content holds (lib/render/alert-words.ts), as upstream's edit renders them again.
 */
const renderEdit = async (realm: Realm, content: string, topic: string, editor: User): Promise<RenderedEdit> => {
  const result = await renderContent(realm, content, topic, {
    groups: () => RealmGroups.load(realm.id),
    linkifiers: linkifiersStore.readLinkifierList(realm.id).then((list) => list.linkifiers),
    translateEmoticons: settingsOfUser(editor).translate_emoticons,
  });
  const wildcard = result.channelWildcardMentioned || result.topicWildcardMentioned;
  const alerted = usersAlertedBy(content, await userDataStore.getRealmAlertWords(realm.id));
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
      ...(alerted.has(userId) ? ['has_alert_word'] : []),
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
