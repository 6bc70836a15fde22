// Seeds the development data set (seed/dev-realm.json) into the configured tables. Idempotent:
// an item that already exists is left as it is (API keys included), so seeding twice leaves the
// same data. `--extra-users N` (or EXTRA_USERS) adds N generated members of 'zulip', subscribed
// to Verona, with presence rows spread over the last 20 days: the data set for scale work.
import fixture from '../seed/dev-realm.json';
import { nowSeconds } from '../lib/clock';
import type { GroupSettingValue, Realm } from '../lib/models/realm';
import { INTERNAL_REALM_ID, Role, type User } from '../lib/models/user';
import { generateConfirmationKey } from '../lib/models/invite';
import { batchGet, batchPut, raiseAtLeast, raiseCounter, type Item } from '../lib/store/common';
import { entityKeys as ek, keys, type Key } from '../lib/store/keys';
import { buildPresenceItem } from '../lib/store/presence';
import { buildEmailLockItem, buildUserItem } from '../lib/store/users';
import { buildChannelNameItem, buildSubscriptionItem } from '../lib/store/channels';
import { buildPasswordItem } from '../lib/store/passwords';
import { DEV_PASSWORD_COST, devPassword, generateApiKey, hashPassword } from '../lib/passwords';
import { renderPlainMarkdown } from '../lib/render';
import { isRenderable, type FieldType } from '../lib/models/custom-profile-field';
import type { DraftType } from '../lib/models/draft';
import { buildProfileValueItem } from '../lib/store/custom-profile-fields';
import { buildDraftItem } from '../lib/store/drafts';
import {
  buildDmConversationItem,
  buildMessageItem,
  buildMessageRecipientsItems,
  buildReceivedTopicItem,
  buildTopicSummaryItem,
  buildUserMessageItem,
} from '../lib/store/messages';
import type { Message } from '../lib/models/message';
import { renderMessage, type RenderInput } from '../lib/render';

type Fixture = typeof fixture;
const EXTRA_USER_FIRST_ID = 100000;
const VERONA = 3;
/** Upstream's bot_type of a generic bot, which its system bots are. */
const DEFAULT_BOT_TYPE = 1;

/** Resolves a fixture group-setting value: "role:x" names the system group of the realm. */
const groupSetting = (realmId: number, value: unknown): GroupSettingValue | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const group = fixture.user_groups.find((g) => g.realm_id === realmId && g.name === value);
    if (!group) throw new Error(`unknown system group ${value} in realm ${realmId}`);
    return group.id;
  }
  return value as GroupSettingValue;
};

const realmItems = (): Item[] =>
  fixture.realms.map((r) => {
    const realm: Realm = {
      id: r.id,
      stringId: r.string_id,
      name: r.name,
      description: r.description,
      dateCreated: r.date_created,
      deactivated: false,
      presenceDisabled: r.presence_disabled,
      enableSpectatorAccess: r.enable_spectator_access,
      waitingPeriodThreshold: r.waiting_period_threshold,
      emptyTopicDisplayName: r.empty_topic_display_name,
      demoOrganizationScheduledDeletionDate: r.demo_organization_scheduled_deletion_date,
      newStreamAnnouncementsStreamId: r.new_stream_announcements_stream_id,
      limits: r.limits,
      groupSettings: Object.fromEntries(Object.entries(r.group_settings).map(([k, v]) => [k, groupSetting(r.id, v)!])),
    };
    return { ...keys.realm(realm.id), ...keys.realmByName(realm.stringId), ...realm };
  });

const toUser = (u: Fixture['users'][number] & Record<string, unknown>): User => ({
  id: u.user_id,
  realmId: u.realm_id,
  email: u.email,
  fullName: u.full_name,
  role: u.role,
  isBot: (u.is_bot as boolean | undefined) ?? fixture.user_defaults.is_bot,
  botType: (u.bot_type as number | undefined) ?? null,
  botOwnerId: (u.bot_owner_id as number | undefined) ?? null,
  isActive: (u.is_active as boolean | undefined) ?? fixture.user_defaults.is_active,
  timezone: u.timezone,
  dateJoined: u.date_joined,
  apiKey: generateApiKey(),
  presenceEnabled: (u.presence_enabled as boolean | undefined) ?? fixture.user_defaults.presence_enabled,
  enableDraftsSynchronization:
    (u.enable_drafts_synchronization as boolean | undefined) ?? fixture.user_defaults.enable_drafts_synchronization,
});

/** A system bot (upstream's cross-realm bots): a bot of the internal organization, nobody's. */
const toSystemBot = (b: Fixture['system_bots'][number]): User => ({
  id: b.user_id,
  realmId: INTERNAL_REALM_ID,
  email: b.email,
  fullName: b.full_name,
  role: Role.MEMBER,
  isBot: true,
  botType: DEFAULT_BOT_TYPE,
  botOwnerId: null,
  isActive: true,
  timezone: '',
  dateJoined: b.date_joined,
  apiKey: generateApiKey(),
  presenceEnabled: false,
  enableDraftsSynchronization: false,
});

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
const channelItems = (now: number, extraSubscribers: number): Item[] =>
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

const channelFolderItems = (): Item[] =>
  fixture.channel_folders.map((f) => ({
    ...ek.channelFolder(f.realm_id, f.id),
    id: f.id,
    realmId: f.realm_id,
    name: f.name,
    description: f.description,
    order: f.order,
    dateCreated: f.date_created,
    creatorId: f.creator_id,
    isArchived: f.is_archived,
  }));

const realmOfUser = new Map(fixture.users.map((u) => [u.user_id, u.realm_id]));

const isActiveUser = new Map(
  fixture.users.map((u) => [
    u.user_id,
    ((u as Record<string, unknown>).is_active as boolean | undefined) ?? fixture.user_defaults.is_active,
  ]),
);

const subscriptionItem = (userId: number, channelId: number, active: boolean): Item => {
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

const subscriptionItems = (): Item[] => [
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
const messageItems = (now: number): Item[] => {
  const items: Item[] = [];
  const summaries = new Map<string, Item>();
  const keepNewest = (item: Item) => {
    const id = `${item.pk}|${item.sk}`;
    const previous = summaries.get(id);
    if (!previous || (previous.maxMessageId as number) < (item.maxMessageId as number)) summaries.set(id, item);
  };
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

/** A presence row of `user` (with the user fields the row carries); the realm's sequence is raised separately. */
export const presenceItem = (user: User, lastActiveTime: number | null, lastConnectedTime: number | null, lastUpdateId: number): Item =>
  buildPresenceItem({
    realmId: user.realmId,
    userId: user.id,
    lastActiveTime,
    lastConnectedTime,
    lastUpdateId,
    email: user.email,
    isBot: user.isBot,
    isActive: user.isActive,
    dateJoined: user.dateJoined,
  });

const presenceItems = (now: number, users: Map<number, User>): Item[] =>
  fixture.presence.map((p) => presenceItem(users.get(p.user_id)!, now - p.active_ago_s, now - p.connected_ago_s, p.last_update_id));

const draftItems = (now: number): Item[] =>
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

const customProfileItems = (): Item[] => [
  ...fixture.custom_profile_fields.map((f) => {
    const field = f as typeof f & Record<string, unknown>;
    return {
      ...ek.customProfileField(f.realm_id, f.id),
      id: f.id,
      realmId: f.realm_id,
      name: f.name,
      type: f.type,
      order: f.order,
      hint: f.hint,
      fieldData: f.field_data,
      displayInProfileSummary: (field.display_in_profile_summary as boolean | undefined) ?? false,
      useForUserMatching: (field.use_for_user_matching as boolean | undefined) ?? false,
      required: (field.required as boolean | undefined) ?? fixture.custom_profile_field_defaults.required,
      editableByUser: (field.editable_by_user as boolean | undefined) ?? fixture.custom_profile_field_defaults.editable_by_user,
    };
  }),
  ...Object.entries(fixture.profile_data).flatMap(([uid, values]) =>
    Object.entries(values).map(([fid, value]) => {
      const type = fixture.custom_profile_fields.find((f) => f.id === Number(fid))!.type as FieldType;
      return buildProfileValueItem({
        userId: Number(uid),
        fieldId: Number(fid),
        realmId: realmOfUser.get(Number(uid))!,
        value,
        ...(isRenderable(type) ? { renderedValue: renderPlainMarkdown(value) } : {}),
      });
    }),
  ),
];

const linkifierItems = (): Item[] =>
  fixture.linkifiers.map((l) => ({
    ...ek.linkifier(l.realm_id, l.id),
    id: l.id,
    realmId: l.realm_id,
    order: l.order,
    pattern: l.pattern,
    urlTemplate: l.url_template,
  }));

const GROUP_SETTINGS = Object.keys(fixture.user_group_defaults).filter((k) => k.startsWith('can_'));

/** Groups, each with its name lock (GROUPNAME#<name>: names are unique within an organization). */
const userGroupItems = (extraMemberIds: number[]): Item[] =>
  fixture.user_groups.flatMap((g) => {
    const group = g as typeof g & Record<string, unknown>;
    const isSystem = (group.is_system_group as boolean | undefined) ?? false;
    const settings = Object.fromEntries(
      GROUP_SETTINGS.map((k) => {
        const raw = isSystem ? 'role:nobody' : (group[k] ?? fixture.user_group_defaults[k as keyof typeof fixture.user_group_defaults]);
        const value =
          raw === 'creator' ? { direct_members: [group.creator_id as number], direct_subgroups: [] } : groupSetting(g.realm_id, raw);
        return [k, value];
      }),
    );
    const extra = g.realm_id === 2 && (g.name === 'role:members' || g.name === 'role:fullmembers') ? extraMemberIds : [];
    const groupItem: Item = {
      ...ek.userGroup(g.realm_id, g.id),
      id: g.id,
      realmId: g.realm_id,
      name: g.name,
      description: g.description,
      members: [...g.members, ...extra],
      directSubgroupIds: g.subgroups,
      isSystemGroup: isSystem,
      deactivated: (group.deactivated as boolean | undefined) ?? false,
      creatorId: (group.creator_id as number | undefined) ?? null,
      dateCreated: (group.date_created as number | undefined) ?? null,
      groupSettings: settings,
      version: 0,
    };
    return [groupItem, { ...ek.groupName(g.realm_id, g.name), realmId: g.realm_id, groupId: g.id }];
  });

const inviteItems = (): Item[] =>
  fixture.multiuse_invites.map((i) => {
    const confirmationKey = generateConfirmationKey();
    return {
      ...ek.multiuseInvite(i.realm_id, i.id),
      // Found by its link's key (/join/<key>/), as a link created through the API is.
      ...ek.inviteByConfirmationKey(confirmationKey),
      id: i.id,
      realmId: i.realm_id,
      referredBy: i.referred_by,
      invitedAs: i.invited_as,
      streamIds: i.stream_ids,
      dateCreated: i.date_created,
      expiryDate: null,
      status: i.status,
      confirmationKey,
    };
  });

const scheduledMessageItems = (): Item[] =>
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

const perUserItems = (): Item[] => [
  ...Object.entries(fixture.alert_words).map(([uid, words]) => ({ ...ek.alertWords(Number(uid)), userId: Number(uid), words })),
  ...fixture.users.map((u) => ({ ...ek.onboardingSteps(u.user_id), userId: u.user_id, steps: fixture.onboarding_steps.default })),
  ...fixture.saved_snippets.map((s) => ({
    ...ek.savedSnippet(s.user_id, s.id),
    id: s.id,
    userId: s.user_id,
    title: s.title,
    content: s.content,
    dateCreated: s.date_created,
  })),
  // Each user's snippet count, which bounds how many snippets they keep.
  ...Object.entries(
    fixture.saved_snippets.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s.user_id]: (counts[s.user_id] ?? 0) + 1 }), {}),
  ).map(([uid, count]) => ({ ...ek.savedSnippetCount(Number(uid)), count })),
  // Each user's navigation views (a built-in view has no name), their name claims and their count.
  ...Object.entries(fixture.navigation_views).flatMap(([uid, views]) => {
    const userId = Number(uid);
    const named = views.flatMap((v) => (v.name !== undefined ? [{ fragment: v.fragment, name: v.name }] : []));
    return [
      ...views.map((v) => ({
        ...ek.navigationView(userId, v.fragment),
        userId,
        fragment: v.fragment,
        isPinned: v.is_pinned,
        ...(v.name !== undefined ? { name: v.name } : {}),
      })),
      ...named.map((v) => ({ ...ek.navigationViewName(userId, v.name), userId, fragment: v.fragment })),
      { ...ek.navigationViewCount(userId), count: views.length },
    ];
  }),
];

/** A generated member of 'zulip' (scale work: extra users, benchmarks), with a fresh API key. */
export const generatedMember = (id: number, email: string, fullName: string): User => ({
  id,
  realmId: 2,
  email,
  fullName,
  role: 400,
  isBot: false,
  botType: null,
  botOwnerId: null,
  isActive: true,
  timezone: 'UTC',
  dateJoined: 1700010000,
  apiKey: generateApiKey(),
  presenceEnabled: true,
  enableDraftsSynchronization: true,
});

/** Generated members of 'zulip' for scale work: ids from 100000, subscribed to Verona, presence within 20 days. */
const extraUserItems = (count: number, now: number): { items: Item[]; ids: number[]; lastUpdateId: number } => {
  const items: Item[] = [];
  const ids: number[] = [];
  const firstUpdateId = Math.max(...fixture.presence.map((p) => p.last_update_id)) + 1;
  for (let i = 0; i < count; i += 1) {
    const id = EXTRA_USER_FIRST_ID + i;
    ids.push(id);
    const user = generatedMember(id, `extrauser${i}@zulip.com`, `Extra User ${i}`);
    items.push(buildUserItem(user), buildEmailLockItem(user));
    items.push({ ...subscriptionItem(id, VERONA, true), realmId: 2 });
    const connected = now - Math.floor((((i * 7919) % 1000) / 1000) * 20 * 86400);
    items.push(presenceItem(user, connected, connected, firstUpdateId + i));
  }
  return { items, ids, lastUpdateId: firstUpdateId + count - 1 };
};

const keyOf = (item: Item): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/** Batches of 25 written at once: DynamoDB Local takes them in parallel, and a seed is mostly waiting. */
const WRITE_CONCURRENCY = 8;

/**
 * Writes the items that do not exist yet; returns how many were written. `fresh` tables (just
 * created, as the tests' are) skip the existence check: every item is missing.
 */
const putMissing = async (items: Item[], fresh: boolean, progress?: (done: number, total: number) => void): Promise<number> => {
  let written = 0;
  for (let i = 0; i < items.length; i += 1000) {
    const chunk = items.slice(i, i + 1000);
    const existing = fresh ? new Set<string>() : new Set((await batchGet('main', chunk.map(keyOf))).map((it) => `${it.pk}|${it.sk}`));
    const missing = chunk.filter((it) => !existing.has(`${it.pk}|${it.sk}`));
    await batchPut('main', missing, { concurrency: WRITE_CONCURRENCY });
    written += missing.length;
    progress?.(Math.min(i + 1000, items.length), items.length);
  }
  return written;
};

/**
 * Every fixture account gets its development password (lib/passwords.ts devPassword: derived from
 * its email; `npm run password -- EMAIL` prints it), hashed at the development data set's cost.
 */
const passwordItems = (users: User[]): Promise<Item[]> =>
  Promise.all(users.map(async (u) => buildPasswordItem(u.id, await hashPassword(devPassword(u.email), DEV_PASSWORD_COST))));

export type SeedOptions = {
  extraUsers?: number;
  log?: (line: string) => void;
  /** The tables were just created and are empty: write without checking for existing items. */
  fresh?: boolean;
};

/** Seeds everything; idempotent. Returns the number of items written. */
export const seedDevRealm = async (opts: SeedOptions = {}): Promise<number> => {
  const now = nowSeconds();
  const log = opts.log ?? (() => undefined);
  const extra = extraUserItems(opts.extraUsers ?? 0, now);
  const fixtureUsers = (fixture.users as (Fixture['users'][number] & Record<string, unknown>)[]).map(toUser);
  const allUsers = [...fixtureUsers, ...fixture.system_bots.map(toSystemBot)];
  // Each user with the lock that keeps its email unique in its organization (lib/actions/people/create.ts).
  const users = allUsers.flatMap((u) => [buildUserItem(u), buildEmailLockItem(u)]);
  const items = [
    ...realmItems(),
    ...users,
    ...channelItems(now, opts.extraUsers ?? 0),
    ...channelFolderItems(),
    ...subscriptionItems(),
    ...messageItems(now),
    ...presenceItems(now, new Map(fixtureUsers.map((u) => [u.id, u]))),
    ...draftItems(now),
    ...customProfileItems(),
    ...linkifierItems(),
    ...userGroupItems(extra.ids),
    ...inviteItems(),
    ...scheduledMessageItems(),
    ...perUserItems(),
    ...(await passwordItems(fixtureUsers)),
  ];
  const fresh = opts.fresh ?? false;
  let written = await putMissing(items, fresh);
  if (extra.items.length > 0) {
    written += await putMissing(extra.items, fresh, (done, total) => {
      if (done % 10000 < 1000 || done === total) log(`  extra users: ${done}/${total} items`);
    });
  }
  // Id counters start past every seeded id, so created objects never collide with seeded ones.
  const maxId = (list: { id: number }[]) => Math.max(0, ...list.map((x) => x.id));
  const counters: Record<string, number> = {
    user: Math.max(maxId([...fixture.users, ...fixture.system_bots].map((u) => ({ id: u.user_id }))), ...extra.ids),
    channel: maxId(fixture.channels.map((c) => ({ id: c.stream_id }))),
    channelFolder: maxId(fixture.channel_folders),
    // Message ids rise per organization; every organization's counter starts past every seeded id.
    ...Object.fromEntries(fixture.realms.map((r) => [`message#${r.id}`, maxId(fixture.messages)])),
    draft: maxId(fixture.drafts),
    customProfileField: maxId(fixture.custom_profile_fields),
    linkifier: maxId(fixture.linkifiers),
    userGroup: maxId(fixture.user_groups),
    multiuseInvite: maxId(fixture.multiuse_invites),
    scheduledMessage: maxId(fixture.scheduled_messages),
    savedSnippet: maxId(fixture.saved_snippets),
  };
  await Promise.all(Object.entries(counters).map(([entity, value]) => raiseCounter(entity, value)));
  // The presence sequence of each realm stands at its highest seeded update id.
  const zulipSequence = Math.max(extra.lastUpdateId, ...fixture.presence.map((p) => p.last_update_id));
  await raiseAtLeast(ek.presenceSequence(2), zulipSequence);
  return written;
};
