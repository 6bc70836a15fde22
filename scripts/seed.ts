// Seeds the development data set (seed/dev-realm.json) into the configured tables. Idempotent:
// an item that already exists is left as it is (API keys included), so seeding twice leaves the
// same data. `--extra-users N` (or EXTRA_USERS) adds N generated members of 'zulip', subscribed
// to Verona, with presence rows spread over the last 20 days: the data set for scale work.
// The items are built by what they seed: seed-people.ts (organizations, users, groups, settings)
// and seed-messages.ts (channels, subscriptions, messages); this module writes them and raises the
// id counters past them.
import { nowSeconds } from '../lib/clock';
import { batchGet, batchPut, raiseAtLeast, raiseCounter, type Item } from '../lib/store/common';
import { entityKeys as ek, type Key } from '../lib/store/keys';
import { buildEmailLockItem, buildUserItem } from '../lib/store/users';
import { fixture, type Fixture } from './seed-fixture';
import { channelFolderItems, channelItems, draftItems, messageItems, scheduledMessageItems, subscriptionItems } from './seed-messages';
import {
  customProfileItems,
  extraUserItems,
  inviteItems,
  linkifierItems,
  passwordItems,
  perUserItems,
  presenceItems,
  realmItems,
  toSystemBot,
  toUser,
  userGroupItems,
} from './seed-people';

/** What scale work and the tests build on: a generated member, a presence row. */
export { generatedMember, presenceItem } from './seed-people';

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
