// Writing a checked export (import-read.ts) as a new organization, through the store's item
// builders as sending, subscribing and seeding write them: system groups with each user in its
// role's group, users (no password: they set one through password reset; fresh API keys), channels,
// subscriptions, messages with their rows, reactions, edit history, conversations and topic
// summaries, and attachments with their bytes. Every item is written under the new organization's
// id, which nothing reaches until its subdomain is claimed (import-run.ts, the last write); the
// writer lists every key before it writes it (import-state.ts), so a failure before the claim
// removes them all, whichever run wrote them. Messages are written a span at a time (a run's
// share); what depends on all of them (summaries, channel activity, upload claims) is written by
// the last run from one more pass over the message files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Attachment, AttachmentClaim } from '../../models/attachment';
import type { Channel, Subscription } from '../../models/channel';
import { flagsOfMask, RecipientType, type ExportRecord } from '../../models/export-format';
import type { Message } from '../../models/message';
import { reactionKey, type ReactionType, type StoredReactions } from '../../models/reaction';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import type { UserGroup } from '../../models/user-group';
import { generateApiKey } from '../../passwords';
import { getUploadOfUser, putAttachment, putClaims } from '../../store/attachments';
import { buildChannelItem, buildChannelNameItem, buildSubscriptionItem } from '../../store/channels';
import type { Item } from '../../store/common';
import { putFile } from '../../store/files';
import { entityKeys } from '../../store/keys';
import {
  buildDmConversationItem,
  buildMessageItem,
  buildMessageRecipientsItems,
  buildReceivedTopicItem,
  buildTopicSummaryItem,
  buildUserMessageItem,
  NewestSummaries,
} from '../../store/messages';
import { buildGroupItems } from '../../store/user-groups';
import { buildEmailLockItem, buildUserItem } from '../../store/users';
import { newChannel } from '../channels/new-channel';
import { systemGroupNamesForRole } from '../groups/role-groups';
import { remapContent, remapEditHistory, remapRendered, type IdMaps } from './import-ids';
import { parseEditHistory, readJsonMember, type ImportPlan } from './import-read';
import type { ImportWriter } from './import-state';

/** Row flags this server keeps (upstream's others, such as is_private, are its own bookkeeping). */
const KEPT_FLAGS = new Set([
  'read',
  'starred',
  'mentioned',
  'wildcard_mentioned',
  'has_alert_word',
  'historical',
  'topic_wildcard_mentioned',
  'group_mentioned',
]);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

/** The users, their role groups' memberships, and the items of both. */
export const writeUsers = async (w: ImportWriter, plan: ImportPlan, realm: Realm, groups: UserGroup[], ids: IdMaps): Promise<User[]> => {
  const users: User[] = plan.users.map((r) => {
    const settings =
      typeof r.settings === 'object' && r.settings !== null ? (r.settings as Record<string, boolean | number | string>) : undefined;
    return {
      id: ids.users.get(Number(r.id))!,
      realmId: realm.id,
      email: typeof r.delivery_email === 'string' ? r.delivery_email : String(r.email),
      fullName: String(r.full_name),
      role: Number(r.role),
      isBot: bool(r.is_bot, false),
      botType: typeof r.bot_type === 'number' ? r.bot_type : null,
      botOwnerId: typeof r.bot_owner === 'number' ? ids.users.get(r.bot_owner)! : null,
      isActive: bool(r.is_active, true),
      timezone: typeof r.timezone === 'string' ? r.timezone : '',
      dateJoined: typeof r.date_joined === 'number' ? r.date_joined : realm.dateCreated,
      apiKey: generateApiKey(),
      presenceEnabled: bool(settings?.presence_enabled ?? r.presence_enabled, true),
      enableDraftsSynchronization: bool(r.enable_drafts_synchronization, true),
      ...(settings && Object.keys(settings).length > 0 ? { settings } : {}),
    };
  });
  for (const user of users)
    for (const name of systemGroupNamesForRole(realm, user, user.role))
      groups.find((g) => g.isSystemGroup && g.name === name)!.members.push(user.id);
  await w.put(groups.flatMap(buildGroupItems));
  await w.put(users.flatMap((u) => [buildUserItem(u), buildEmailLockItem(u)]));
  return users;
};

/** Per channel: its first message id and when its newest was sent (what a send keeps on the channel). */
export type ChannelActivity = Map<number, { first: number; lastAt: number }>;

/** The channels (with their subscriber counts and activity) and the subscriptions to them. */
export const writeChannels = async (
  w: ImportWriter,
  plan: ImportPlan,
  realm: Realm,
  groups: UserGroup[],
  ids: IdMaps,
  activity: ChannelActivity,
): Promise<void> => {
  // As writeUsers reads is_active: the users were written by the first run.
  const inactive = new Set(plan.users.filter((u) => !bool(u.is_active, true)).map((u) => ids.users.get(Number(u.id))!));
  const subs = new Map<string, Subscription>();
  for (const r of plan.subscriptions) {
    const recipient = plan.recipients.get(Number(r.recipient))!;
    if (recipient.type !== RecipientType.STREAM) continue;
    const userId = ids.users.get(Number(r.user_profile))!;
    const channelId = ids.channels.get(recipient.typeId)!;
    const nullableBool = (v: unknown) => (typeof v === 'boolean' ? v : null);
    subs.set(`${userId}|${channelId}`, {
      userId,
      channelId,
      realmId: realm.id,
      active: bool(r.active, true),
      ...(inactive.has(userId) ? { isUserActive: false } : {}),
      isMuted: bool(r.is_muted, false),
      pinToTop: bool(r.pin_to_top, false),
      color: typeof r.color === 'string' ? r.color : '#c2c2c2',
      desktopNotifications: nullableBool(r.desktop_notifications),
      emailNotifications: nullableBool(r.email_notifications),
      wildcardMentionsNotify: nullableBool(r.wildcard_mentions_notify),
      pushNotifications: nullableBool(r.push_notifications),
      audibleNotifications: nullableBool(r.audible_notifications),
    });
  }
  const channels: Channel[] = plan.channels.map((r) => {
    const id = ids.channels.get(Number(r.id))!;
    const creator = typeof r.creator === 'number' ? { id: ids.users.get(r.creator)! } : null;
    const inviteOnly = bool(r.invite_only, false);
    const history = bool(r.history_public_to_subscribers, !inviteOnly);
    const dateCreated = typeof r.date_created === 'number' ? r.date_created : realm.dateCreated;
    const base = newChannel(
      realm,
      creator,
      groups,
      {
        id,
        name: String(r.name),
        description: typeof r.description === 'string' ? r.description : '',
        inviteOnly,
        historyPublicToSubscribers: history,
      },
      {
        isWebPublic: bool(r.is_web_public, false),
        isDefaultStream: false,
        messageRetentionDays: typeof r.message_retention_days === 'number' ? r.message_retention_days : null,
        topicsPolicy: typeof r.topics_policy === 'string' ? r.topics_policy : 'inherit',
        // Folders are not imported (docs/features.md, "Organization imports").
        folderId: null,
        groupSettings: {},
      },
      dateCreated,
    );
    const seen = activity.get(id);
    return {
      ...base,
      // Kept as exported, also for a public channel (newChannel shares a public channel's history).
      historyPublicToSubscribers: history,
      isArchived: bool(r.deactivated ?? r.is_archived, false),
      subscriberCount: [...subs.values()].filter((s) => s.channelId === id && s.active && s.isUserActive !== false).length,
      firstMessageId: seen?.first ?? null,
      lastMessageAt: seen?.lastAt ?? null,
    };
  });
  await w.put(channels.flatMap((c) => [buildChannelItem(c), buildChannelNameItem(c)]));
  await w.put([...subs.values()].map(buildSubscriptionItem));
};

const storedReactions = (records: ExportRecord[] | undefined, dateSent: number, ids: IdMaps): StoredReactions | undefined => {
  if (!records || records.length === 0) return undefined;
  const out: StoredReactions = {};
  records.forEach((r, i) => {
    const userId = ids.users.get(Number(r.user_profile))!;
    const reactionType = String(r.reaction_type) as ReactionType;
    const emojiCode = String(r.emoji_code);
    const addedAt = typeof r.added_at === 'number' ? r.added_at : Math.round(dateSent * 1000) + i;
    out[reactionKey(userId, reactionType, emojiCode)] = { userId, emojiName: String(r.emoji_name), emojiCode, reactionType, addedAt };
  });
  return out;
};

type MessageFile = { zerver_message: ExportRecord[]; zerver_usermessage: ExportRecord[] };

/** One exported message as it is written: the message, its receivers' rows with their kept flags. */
type ImportedMessage = { oldId: number; message: Message; rows: { userId: number; flags: string[] }[] };

/** The message files in order, each with the place of its first message among all of them. */
async function* messageFiles(plan: ImportPlan): AsyncGenerator<{ name: string; first: number; data: MessageFile }> {
  let first = 0;
  for (const name of plan.messageFiles) {
    const data = (await readJsonMember(plan.dir, name)) as MessageFile;
    yield { name, first, data };
    first += data.zerver_message.length;
  }
}

const importedMessage = (
  plan: ImportPlan,
  realm: Realm,
  ids: IdMaps,
  name: string,
  r: ExportRecord,
  rows: ExportRecord[],
): ImportedMessage => {
  const oldId = Number(r.id);
  const senderId = ids.users.get(Number(r.sender))!;
  const recipient = plan.recipients.get(Number(r.recipient))!;
  const streamId = recipient.type === RecipientType.STREAM ? ids.channels.get(recipient.typeId)! : null;
  const others =
    recipient.type === RecipientType.PERSONAL
      ? [recipient.typeId]
      : recipient.type === RecipientType.DIRECT_MESSAGE_GROUP
        ? (plan.groupMembers.get(Number(r.recipient)) ?? [])
        : [];
  const dmUserIds = streamId === null ? [...new Set([senderId, ...others.map((u) => ids.users.get(u)!)])].sort((a, b) => a - b) : [];
  const history = parseEditHistory(r, name);
  const client = typeof r.sending_client === 'number' ? plan.clients.get(r.sending_client) : r.sending_client;
  const reactions = storedReactions(plan.reactionsByMessage.get(oldId), Number(r.date_sent), ids);
  const message: Message = {
    id: ids.messages.get(oldId)!,
    realmId: realm.id,
    senderId,
    streamId,
    topic: String(r.subject),
    dmUserIds,
    content: remapContent(String(r.content), oldId, ids),
    dateSent: Number(r.date_sent),
    ...(typeof r.rendered_content === 'string' ? { renderedContent: remapRendered(r.rendered_content, oldId, ids) } : {}),
    topicLinks: [],
    ...(typeof client === 'string' ? { sendingClient: client } : {}),
    hasLink: bool(r.has_link, false),
    hasImage: bool(r.has_image, false),
    hasAttachment: bool(r.has_attachment, false),
    isMeMessage: false,
    ...(history.length > 0 ? { editHistory: remapEditHistory(history, oldId, ids) } : {}),
    ...(reactions ? { reactions } : {}),
  };
  return {
    oldId,
    message,
    rows: rows.map((row) => ({
      userId: ids.users.get(Number(row.user_profile))!,
      flags: flagsOfMask(Number(row.flags_mask)).filter((f) => KEPT_FLAGS.has(f)),
    })),
  };
};

/** The messages of a file whose places are in [from, to), with their rows. */
const messagesInSpan = (
  plan: ImportPlan,
  realm: Realm,
  ids: IdMaps,
  file: { name: string; first: number; data: MessageFile },
  from: number,
  to: number,
) => {
  const rows = new Map<number, ExportRecord[]>();
  for (const row of file.data.zerver_usermessage) rows.set(Number(row.message), [...(rows.get(Number(row.message)) ?? []), row]);
  return file.data.zerver_message
    .slice(Math.max(0, from - file.first), Math.max(0, to - file.first))
    .map((r) => importedMessage(plan, realm, ids, file.name, r, rows.get(Number(r.id)) ?? []));
};

/**
 * The messages at places `from` up to `to` (in the files' order), a file's part at a time, until
 * `stop()` says the run's time is spent: each message (new id, content and rendering with the new
 * ids, edit history, reactions), its rows with their flags, its recipients record. Returns the
 * place of the first message not written.
 */
export const writeMessages = async (
  w: ImportWriter,
  plan: ImportPlan,
  realm: Realm,
  ids: IdMaps,
  span: { from: number; to: number; stop: () => boolean },
  log: (line: string) => void,
): Promise<number> => {
  let reached = span.from;
  for await (const file of messageFiles(plan)) {
    const end = Math.min(span.to, file.first + file.data.zerver_message.length);
    if (end <= reached) continue;
    if (span.stop()) break;
    const items: Item[] = [];
    for (const { message, rows } of messagesInSpan(plan, realm, ids, file, reached, end)) {
      items.push(buildMessageItem(message));
      for (const row of rows) items.push(buildUserMessageItem(message, row.userId, row.flags));
      items.push(
        ...buildMessageRecipientsItems(
          message,
          rows.map((row) => row.userId),
        ),
      );
    }
    await w.put(items);
    reached = end;
    log(`messages: ${reached}/${plan.messageIds.length}`);
    if (reached >= span.to) break;
  }
  return reached;
};

/**
 * After the last message is written: one more pass over the files writes the conversations' and
 * topics' summaries at their newest message, and returns the channels' activity and the claims of
 * the uploads the messages link (as sending records them). Deterministic from the archive, so the
 * last run computes them whichever runs wrote the messages.
 */
export const finishMessages = async (
  w: ImportWriter,
  plan: ImportPlan,
  realm: Realm,
  ids: IdMaps,
): Promise<{ activity: ChannelActivity; claims: AttachmentClaim[] }> => {
  const activity: ChannelActivity = new Map();
  const claims: AttachmentClaim[] = [];
  const summaries = new NewestSummaries();
  const keepNewest = (item: Item) => summaries.keep(item);
  const protectedChannels = new Set(
    plan.channels.filter((c) => c.history_public_to_subscribers === false).map((c) => ids.channels.get(Number(c.id))!),
  );
  for await (const file of messageFiles(plan)) {
    for (const { oldId, message, rows } of messagesInSpan(plan, realm, ids, file, file.first, Infinity)) {
      const { id, streamId, dmUserIds } = message;
      const receivers = rows.map((row) => row.userId);
      if (streamId === null) for (const userId of receivers) keepNewest(buildDmConversationItem(realm.id, userId, dmUserIds, id));
      for (const oldPath of ids.uploadsOfMessage.get(oldId) ?? []) {
        const pathId = ids.uploads.get(oldPath)!;
        claims.push(
          streamId !== null
            ? { pathId, messageId: id, kind: 'channel', channelId: streamId }
            : { pathId, messageId: id, kind: 'direct', recipientIds: dmUserIds },
        );
      }
      if (streamId !== null) {
        const summary = { channelId: streamId, topic: message.topic, maxMessageId: id };
        keepNewest(buildTopicSummaryItem(realm.id, summary));
        if (protectedChannels.has(streamId)) for (const userId of receivers) keepNewest(buildReceivedTopicItem(realm.id, userId, summary));
        const seen = activity.get(streamId);
        activity.set(streamId, { first: Math.min(seen?.first ?? id, id), lastAt: Math.max(seen?.lastAt ?? 0, message.dateSent) });
      }
    }
  }
  await w.put(summaries.values());
  return { activity, claims };
};

/**
 * The attachments: each file's bytes under its new path id, its record, its owner's copy, and its
 * claims by the messages that link it. A replayed last run finds its own records there and goes on.
 */
export const writeAttachments = async (
  w: ImportWriter,
  plan: ImportPlan,
  realm: Realm,
  ids: IdMaps,
  claims: AttachmentClaim[],
  firstId: number,
): Promise<void> => {
  const owners = plan.attachments.map((a) => ids.users.get(Number(a.owner))!);
  const pathIds = plan.attachments.map((a) => ids.uploads.get(String(a.path_id))!);
  await w.remember(
    [
      ...pathIds.flatMap((pathId, i) => [entityKeys.attachment(pathId), entityKeys.ownUpload(owners[i]!, firstId + i)]),
      ...claims.map((c) => entityKeys.attachmentClaim(c.pathId, c.messageId)),
      entityKeys.uploadSpace(realm.id),
    ],
    pathIds,
  );
  for (const [i, a] of plan.attachments.entries()) {
    const pathId = pathIds[i]!;
    const body = await readFile(join(plan.dir, 'uploads', String(a.path_id)));
    const contentType = typeof a.content_type === 'string' && a.content_type !== '' ? a.content_type : 'application/octet-stream';
    const attachment: Attachment = {
      id: firstId + i,
      pathId,
      realmId: realm.id,
      ownerId: owners[i]!,
      name: String(a.file_name),
      size: body.length,
      contentType,
      createTime: typeof a.create_time === 'number' ? a.create_time : realm.dateCreated,
      isRealmPublic: bool(a.is_realm_public, false),
      isWebPublic: bool(a.is_web_public, false),
    };
    await putFile(pathId, body, contentType);
    if (!(await putAttachment(attachment)) && (await getUploadOfUser(attachment.ownerId, attachment.id))?.pathId !== pathId)
      throw new Error(`path id ${pathId} already taken`);
    await putClaims(claims.filter((c) => c.pathId === pathId));
  }
};
