// Seeding the development data set's organizations and people: the organizations, their users
// and the system bots, user groups, presence, custom profile fields and values, linkifiers,
// reusable invitations, per-user settings (alert words, onboarding, snippets, navigation views),
// passwords, and the generated members of scale work.
import type { Realm } from '../lib/models/realm';
import { INTERNAL_REALM_ID, Role, type User } from '../lib/models/user';
import { generateConfirmationKey } from '../lib/models/invite';
import type { Item } from '../lib/store/common';
import { entityKeys as ek, keys } from '../lib/store/keys';
import { buildPresenceItem } from '../lib/store/presence';
import { buildEmailLockItem, buildUserItem } from '../lib/store/users';
import { buildPasswordItem } from '../lib/store/passwords';
import { DEV_PASSWORD_COST, devPassword, generateApiKey, hashPassword } from '../lib/passwords';
import { renderPlainMarkdown } from '../lib/render';
import { isRenderable, type FieldType } from '../lib/models/custom-profile-field';
import { buildProfileValueItem } from '../lib/store/custom-profile-fields';
import { fixture, groupSetting, realmOfUser, VERONA, type Fixture } from './seed-fixture';
import { subscriptionItem } from './seed-messages';

const EXTRA_USER_FIRST_ID = 100000;
/** Upstream's bot_type of a generic bot, which its system bots are. */
const DEFAULT_BOT_TYPE = 1;

export const realmItems = (): Item[] =>
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

export const toUser = (u: Fixture['users'][number] & Record<string, unknown>): User => ({
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
export const toSystemBot = (b: Fixture['system_bots'][number]): User => ({
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

export const presenceItems = (now: number, users: Map<number, User>): Item[] =>
  fixture.presence.map((p) => presenceItem(users.get(p.user_id)!, now - p.active_ago_s, now - p.connected_ago_s, p.last_update_id));

export const customProfileItems = (): Item[] => [
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

export const linkifierItems = (): Item[] =>
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
export const userGroupItems = (extraMemberIds: number[]): Item[] =>
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

export const inviteItems = (): Item[] =>
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

/** Each organization's index of its users' alert words (lib/store/user-data.ts getRealmAlertWords). */
const realmAlertWordItems = (): Item[] => {
  const byRealm = new Map<number, Record<string, string[]>>();
  for (const [uid, words] of Object.entries(fixture.alert_words)) {
    const realmId = fixture.users.find((u) => u.user_id === Number(uid))!.realm_id;
    byRealm.set(realmId, { ...(byRealm.get(realmId) ?? {}), [uid]: words });
  }
  return [...byRealm].map(([realmId, users]) => ({ ...ek.realmAlertWords(realmId), users }));
};

export const perUserItems = (): Item[] => [
  ...Object.entries(fixture.alert_words).map(([uid, words]) => ({ ...ek.alertWords(Number(uid)), userId: Number(uid), words })),
  ...realmAlertWordItems(),
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
export const extraUserItems = (count: number, now: number): { items: Item[]; ids: number[]; lastUpdateId: number } => {
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

/**
 * Every fixture account gets its development password (lib/passwords.ts devPassword: derived from
 * its email; `npm run password -- EMAIL` prints it), hashed at the development data set's cost.
 */
export const passwordItems = (users: User[]): Promise<Item[]> =>
  Promise.all(users.map(async (u) => buildPasswordItem(u.id, await hashPassword(devPassword(u.email), DEV_PASSWORD_COST))));
