// Seeding the development data set's channels and what is said in them: channels and their
// folders, subscriptions, messages (with every row, conversation and topic summary sending
// writes), drafts and scheduled messages.
import { renderMessage, type RenderInput } from '../lib/render';
import type { DraftType } from '../lib/models/draft';
import type { Message } from '../lib/models/message';
import type { Item } from '../lib/store/common';
import { entityKeys as ek } from '../lib/store/keys';
import { buildChannelNameItem, buildSubscriptionItem } from '../lib/store/channels';
import { buildDraftItem } from '../lib/store/drafts';
import {
  buildDmConversationItem,
  buildMessageItem,
  buildMessageRecipientsItems,
  buildReceivedTopicItem,
  buildTopicSummaryItem,
  buildUserMessageItem,
  NewestSummaries,
} from '../lib/store/messages';
import { fixture, groupSetting, isActiveUser, realmOfUser, VERONA, type Fixture } from './seed-fixture';

const CHANNEL_GROUP_SETTINGS = Object.keys(fixture.channel_defaults).filter((k) => k.startsWith('can_'));

/** What register shows of a channel without reading its subscriptions or messages (see Channel). */
const channelActivity = (channelId: number, now: number, extraSubscribers: number) => {
  const activeSubscribers = fixture.users
    .filter((u) => ((u as Record<string, unknown>).is_active as boolean | undefined) ?? fixture.user_defaults.is_active)
    .filter((u) => ((fixture.subscriptions as Record<string, number[]>)[String(u.user_id)] ?? []).includes(channelId)).length;
  const messages = (fixture.messages as (Fixture['messages'][number] & Record<string, unknown>)[]).filter((m) => m.stream_id === channelId);
  return {
    subscriberCount: activeSubscribers + (channelId === VERONA ? extraSubscribers : 0),
    firstMessageId: messages.length > 0 ? Math.min(...messages.map((m) => m.id)) : null,
    lastMessageAt: messages.length > 0 ? now - Math.min(...messages.map((m) => m.sent_ago_s)) : null,
  };
};

/** Channels whose history is protected: their receivers keep their own topic summaries. */
const PROTECTED_HISTORY_CHANNELS = new Set(
  fixture.channels
    .filter((c) => (({ ...fixture.channel_defaults, ...c }) as Record<string, unknown>).history_public_to_subscribers === false)
    .map((c) => c.stream_id),
);

/** Channels, each with its name lock (CHANNELNAME#<lowercased name>: names are unique within an organization). */
export const channelItems = (now: number, extraSubscribers: number): Item[] =>
  fixture.channels.flatMap((c) => {
    const merged: Record<string, unknown> = { ...fixture.channel_defaults, ...c };
    delete merged.note;
    const settings = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((k) => [k, groupSetting(c.realm_id, merged[k])]));
    const item: Item = {
      ...ek.channel(c.realm_id, c.stream_id),
      id: c.stream_id,
      realmId: c.realm_id,
      name: c.name,
      description: c.description,
      dateCreated: c.date_created,
      creatorId: c.creator_id,
      inviteOnly: merged.invite_only,
      isWebPublic: merged.is_web_public,
      historyPublicToSubscribers: merged.history_public_to_subscribers,
      messageRetentionDays: merged.message_retention_days,
      topicsPolicy: merged.topics_policy,
      folderId: merged.folder_id,
      isArchived: merged.is_archived,
      streamPostPolicy: merged.stream_post_policy,
      groupSettings: settings,
      ...channelActivity(c.stream_id, now, extraSubscribers),
    };
    return [item, buildChannelNameItem({ realmId: c.realm_id, id: c.stream_id, name: c.name })];
  });

/** Each folder with its channel count and name claim, and each organization's count of folders (lib/store/channel-folders.ts). */
export const channelFolderItems = (): Item[] => [
  ...fixture.channel_folders.flatMap((f) => [
    {
      ...ek.channelFolder(f.realm_id, f.id),
      id: f.id,
      realmId: f.realm_id,
      name: f.name,
      description: f.description,
      order: f.order,
      dateCreated: f.date_created,
      creatorId: f.creator_id,
      isArchived: f.is_archived,
      channelCount: fixture.channels.filter((c) => (c as { folder_id?: number | null }).folder_id === f.id).length,
    },
    { ...ek.channelFolderName(f.realm_id, f.name), folderId: f.id },
  ]),
  ...[...new Set(fixture.channel_folders.map((f) => f.realm_id))].map((realmId) => ({
    ...ek.channelFolderCount(realmId),
    count: fixture.channel_folders.filter((f) => f.realm_id === realmId).length,
  })),
];

export const subscriptionItem = (userId: number, channelId: number, active: boolean): Item => {
  const settings = fixture.subscription_settings.find((s) => s.user_id === userId && s.stream_id === channelId) as
    Record<string, unknown> | undefined;
  return buildSubscriptionItem({
    userId,
    channelId,
    realmId: realmOfUser.get(userId) ?? fixture.realms[0].id,
    active,
    ...(isActiveUser.get(userId) === false ? { isUserActive: false } : {}),
    isMuted: (settings?.is_muted as boolean | undefined) ?? false,
    pinToTop: (settings?.pin_to_top as boolean | undefined) ?? false,
    color: (settings?.color as string | undefined) ?? '#c2c2c2',
    desktopNotifications: (settings?.desktop_notifications as boolean | undefined) ?? null,
    emailNotifications: null,
    wildcardMentionsNotify: null,
    pushNotifications: null,
    audibleNotifications: null,
  });
};

export const subscriptionItems = (): Item[] => [
  ...Object.entries(fixture.subscriptions).flatMap(([uid, channels]) => channels.map((cid) => subscriptionItem(Number(uid), cid, true))),
  ...Object.entries(fixture.unsubscribed).flatMap(([uid, channels]) => channels.map((cid) => subscriptionItem(Number(uid), cid, false))),
];

/**
 * Messages in the layout of docs/data-model.md ("Messages: keys, indexes, …"), through the same
 * builders as sending: the message items (content rendered with the organization's users and
 * channels), per receiver its row and flags (read, starred, mentioned, wildcard_mentioned), per
 * participant of a direct message its conversation item at the newest message id, and per channel
 * topic its summary at the newest message id (with protected history, also each receiver's own).
 */
export const messageItems = (now: number): Item[] => {
  const items: Item[] = [];
  const summaries = new NewestSummaries();
  const keepNewest = (item: Item) => summaries.keep(item);
  for (const m of fixture.messages as (Fixture['messages'][number] & Record<string, unknown>)[]) {
    const streamId = (m.stream_id as number | undefined) ?? null;
    const to = (m.to as number[] | undefined) ?? [];
    const dmUserIds = streamId === null ? [...new Set([m.sender_id, ...to])].sort((a, b) => a - b) : [];
    const renderInput: RenderInput = {
      users: fixture.users
        .filter((u) => u.realm_id === m.realm_id)
        .map((u) => ({
          id: u.user_id,
          fullName: u.full_name,
          isActive: ((u as Record<string, unknown>).is_active as boolean | undefined) ?? true,
        })),
      groups: [],
      channels: fixture.channels.filter((c) => c.realm_id === m.realm_id).map((c) => ({ id: c.stream_id, name: c.name })),
      linkifiers: [],
    };
    const rendered = renderMessage(m.content, renderInput);
    const message: Message = {
      id: m.id,
      realmId: m.realm_id,
      senderId: m.sender_id,
      streamId,
      topic: (m.topic as string | undefined) ?? '',
      dmUserIds,
      content: m.content,
      dateSent: now - m.sent_ago_s,
      renderedContent: rendered.html,
      topicLinks: [],
      sendingClient: 'populate_db',
      hasLink: rendered.hasLink,
      hasImage: false,
      hasAttachment: false,
      isMeMessage: false,
    };
    items.push(buildMessageItem(message));
    const receivers =
      streamId !== null
        ? Object.entries(fixture.subscriptions)
            .filter(([, cs]) => cs.includes(streamId))
            .map(([uid]) => Number(uid))
        : dmUserIds;
    for (const userId of receivers) {
      const unread = (m.unread as number[]).includes(userId);
      const starred = ((m.starred_by as number[] | undefined) ?? []).includes(userId);
      const flags = [
        ...(unread ? [] : ['read']),
        ...(starred ? ['starred'] : []),
        ...(((m.mentioned as number[] | undefined) ?? []).includes(userId) ? ['mentioned'] : []),
        ...(((m.wildcard_mentioned as number[] | undefined) ?? []).includes(userId) ? ['wildcard_mentioned'] : []),
      ];
      items.push(buildUserMessageItem(message, userId, flags));
      if (streamId === null) keepNewest(buildDmConversationItem(m.realm_id, userId, dmUserIds, m.id));
    }
    items.push(...buildMessageRecipientsItems(message, receivers));
    if (streamId !== null) {
      const summary = { channelId: streamId, topic: message.topic, maxMessageId: m.id };
      keepNewest(buildTopicSummaryItem(m.realm_id, summary));
      if (PROTECTED_HISTORY_CHANNELS.has(streamId))
        for (const userId of receivers) keepNewest(buildReceivedTopicItem(m.realm_id, userId, summary));
    }
  }
  return [...items, ...summaries.values()];
};

export const draftItems = (now: number): Item[] =>
  fixture.drafts.map((d) =>
    buildDraftItem({
      id: d.id,
      userId: d.user_id,
      type: d.type as DraftType,
      to: d.to,
      topic: d.topic,
      content: d.content,
      timestamp: now - d.edited_ago_s,
    }),
  );

export const scheduledMessageItems = (): Item[] =>
  fixture.scheduled_messages.map((s) => {
    const sm = s as typeof s & Record<string, unknown>;
    return {
      ...ek.scheduledMessage(s.sender_id, s.id),
      id: s.id,
      realmId: s.realm_id,
      senderId: s.sender_id,
      kind: s.kind,
      to: (sm.to as number[] | undefined) ?? [],
      streamId: (sm.stream_id as number | undefined) ?? null,
      topic: (sm.topic as string | undefined) ?? '',
      content: s.content,
      scheduledDeliveryTimestamp: s.scheduled_delivery_timestamp,
      reminderTargetMessageId: (sm.reminder_target_message_id as number | undefined) ?? null,
      failed: false,
    };
  });
