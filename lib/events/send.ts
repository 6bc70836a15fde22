// Sending an event: it is appended once to the organization's stream (audience 'realm') or, for a
// list of users, once per user or once for all of them. Queues pull from their streams when
// polled, so the cost of a send does not depend on how many queues will receive it. Call it after
// the write it describes.
//
// One event to many users (a message to a channel's subscribers, each with their own flags; a
// subscription to a thousand new subscribers) is one shared append to each shard of the
// organization's stream that holds a queue of one of them (each user's own shard, and the
// public-copy shard that all_public_streams queues read), carrying the users it is for and how
// each one's version differs (lib/events/fanout.ts); a queue takes only its owner's version. That
// costs as many appends as those shards (at most config.realmStreamShards(): 1 locally, 8
// deployed), so an audience that would need more of them than one append per user, or one whose
// versions are all different (a direct message between two users: each sees the other as its
// recipient), is appended to each user's own stream instead. A version for everyone else (a
// public channel's message, for all_public_streams queues) then goes to the one shard those
// queues read (publicCopyStream).
import { mapLimited } from '../concurrency';
import { nowMs } from '../clock';
import { config } from '../config';
import type { ApiEvent, Audience } from '../models/event';
import * as streams from '../store/event-streams';
import { eventKeys } from '../store/keys';
import { diffEvent, encodeUserIds, type Edit, type Fanout, type SharedEvent } from './fanout';

/**
 * Appends in flight at once for one send (each is two sequential writes): a send to every shard
 * or to many users' streams is many appends, and this keeps one send from opening thousands of
 * connections or taking a table's whole burst capacity.
 */
export const FANOUT_CONCURRENCY = 64;

/**
 * The largest shared item, as JSON bytes (DynamoDB's limit is 400 KB; its own encoding of the same
 * item is no larger than its JSON but for a few bytes per map or list element). An audience whose
 * item would be larger is split by user id range into items that fit.
 */
export const MAX_SHARED_ITEM_BYTES = 300_000;

const realmStreams = (realmId: number): string[] =>
  Array.from({ length: config.realmStreamShards() }, (_, shard) => eventKeys.realmStream(realmId, shard));

/**
 * The shard every all_public_streams queue of the organization reads (lib/events/queues.ts), so
 * that a version for "everyone else" (a public channel's message to those queues) needs one append
 * there, not one per shard, when the recipients' own versions go to their own streams.
 * Organization-wide events reach it as every shard.
 */
export const publicCopyStream = (realmId: number): string => eventKeys.realmStream(realmId, 0);

/**
 * The shard a user's queues read (lib/events/queues.ts), unless registered with all_public_streams.
 * A queue whose shard is not its owner's under the present shard count is ended (queues.ts), so
 * a change of EVENTS_REALM_SHARDS never leaves a queue reading a shard its events no longer go to.
 */
export const userShardStream = (realmId: number, userId: number): string =>
  eventKeys.realmStream(realmId, userId % config.realmStreamShards());

/**
 * The shards a shared event for these users goes to: each one's own shard, and the public-copy
 * shard, which the all_public_streams queues of any of them read.
 */
const recipientShards = (realmId: number, userIds: number[]): string[] => [
  ...new Set([publicCopyStream(realmId), ...userIds.map((userId) => userShardStream(realmId, userId))]),
];

/** A JSON round trip, as upstream does in tests: a value that cannot be serialized fails here. */
const jsonCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The event as stored: a JSON copy without a queue-local `id`. */
const serializable = <E extends ApiEvent>(event: E): E => {
  const { id: _id, ...payload } = jsonCopy(event) as E & { id?: unknown };
  return payload as unknown as E;
};

let lastStamp = 0;
/**
 * A send's place in send order: the service clock in milliseconds, but strictly after this
 * process's previous send, so that two sends one after the other (a user_topic event on the
 * sender's stream, then the message on the organization's) keep their order in a queue that
 * merges both streams even within one millisecond or under a stopped test clock.
 */
const sendStamp = (): number => {
  lastStamp = Math.max(nowMs(), lastStamp + 0.001);
  return lastStamp;
};

/**
 * The identity of a delivery's events, so that it can be finished by another process after an
 * interruption without sending anything twice: each append is stored with an `eid` made of `id`
 * and its place among the delivery's appends to its stream. With `resumeSince` (ms:
 * no earlier delivery of these events began before it), each stream is first read back to that
 * time, and the appends an earlier delivery made are left out.
 */
export type DeliveryIdentity = { id: string; resumeSince?: number };

const appendAll = async (appends: { stream: string; event: ApiEvent }[], identity?: DeliveryIdentity): Promise<void> => {
  const ts = sendStamp();
  const perStream = new Map<string, number>();
  let tagged = appends.map((a) => {
    const n = perStream.get(a.stream) ?? 0;
    perStream.set(a.stream, n + 1);
    return { ...a, eid: identity ? `${identity.id}#${n}` : undefined };
  });
  if (identity?.resumeSince !== undefined) {
    const since = identity.resumeSince;
    const done = new Set<string>();
    await mapLimited([...perStream.keys()], FANOUT_CONCURRENCY, async (stream) => {
      for (const eid of await streams.recentIdentities(stream, since)) done.add(`${stream} ${eid}`);
    });
    tagged = tagged.filter((a) => !done.has(`${a.stream} ${a.eid!}`));
  }
  await mapLimited(tagged, FANOUT_CONCURRENCY, ({ stream, event, eid }) => streams.append(stream, event, nowMs, ts, eid));
};

/**
 * Delivers `event` to every live queue of the audience (each queue applies its own filters when it
 * reads it): every user of the organization, the listed users (as sendEventPerRecipient), or
 * everyone but the listed users (sendEventToRealmExcept).
 */
export const sendEvent = async (realmId: number, event: ApiEvent, audience: Audience): Promise<void> => {
  if (audience !== 'realm' && 'everyoneBut' in audience) return sendEventToRealmExcept(realmId, event, audience.everyoneBut);
  if (audience !== 'realm')
    return sendEventPerRecipient(
      realmId,
      audience.users.map((userId) => ({ userId, event })),
    );
  const payload = serializable(event);
  await appendAll(realmStreams(realmId).map((stream) => ({ stream, event: payload })));
};

/**
 * Delivers `event` to every user of the organization except `except` (each queue's filters then
 * decide): one shared append per shard of the organization's stream, listing only the exceptions,
 * so the cost does not grow with the organization (an audience of every non-guest: the exceptions
 * are the guests). Without exceptions it is sendEvent's 'realm'.
 */
export const sendEventToRealmExcept = async (realmId: number, event: ApiEvent, except: number[]): Promise<void> => {
  const left = [...new Set(except)];
  if (left.length === 0) return sendEvent(realmId, event, 'realm');
  const items = sharedItems({ base: serializable(event), groups: [{ userIds: left, edits: [], none: true }], others: [] });
  await appendAll(realmStreams(realmId).flatMap((stream) => items.map((item) => ({ stream, event: item }))));
};

type Versions = { base: ApiEvent; groups: { userIds: number[]; edits: Edit[]; none?: true }[]; others?: Edit[] };

/** The deliveries as one event and the edits of each group of users whose versions are equal. */
const shareVersions = (deliveries: { userId: number; event: ApiEvent }[], others: ApiEvent | undefined): Versions => {
  const base = deliveries[0]?.event ?? others!;
  const byEdits = new Map<string, { userIds: number[]; edits: Edit[] }>();
  for (const { userId, event } of deliveries) {
    const edits = event === base ? [] : diffEvent(base, event);
    const key = JSON.stringify(edits);
    const group = byEdits.get(key) ?? { userIds: [], edits: jsonCopy(edits) };
    group.userIds.push(userId);
    byEdits.set(key, group);
  }
  return { base: serializable(base), groups: [...byEdits.values()], ...(others ? { others: jsonCopy(diffEvent(base, others)) } : {}) };
};

/**
 * The stored items of shared versions: one item speaking for every user id, or, when that would be
 * larger than MAX_SHARED_ITEM_BYTES, items each speaking for a range of ids (halving the listed
 * users until each fits). Throws if the event alone with one user does not fit.
 */
const sharedItems = (versions: Versions, lo?: number, hi?: number): SharedEvent[] => {
  const listed = versions.groups.flatMap((g) => g.userIds).sort((a, b) => a - b);
  const fanout: Fanout = {
    ...(lo !== undefined ? { span: hi !== undefined ? [lo, hi] : [lo] } : {}),
    groups: versions.groups
      .filter((g) => g.userIds.length > 0)
      .map((g) => ({ users: encodeUserIds([...g.userIds].sort((a, b) => a - b)), edits: g.edits, ...(g.none ? { none: g.none } : {}) })),
    ...(versions.others ? { others: versions.others } : {}),
  };
  const item: SharedEvent = { ...versions.base, fanout };
  if (Buffer.byteLength(JSON.stringify(item)) <= MAX_SHARED_ITEM_BYTES) return [item];
  if (listed.length <= 1) throw new Error(`an event of ${Buffer.byteLength(JSON.stringify(item))} bytes is too large to send`);
  const middle = listed[Math.floor(listed.length / 2)];
  const part = (from: number, to: number) => ({
    ...versions,
    groups: versions.groups.map((g) => ({ ...g, userIds: g.userIds.filter((id) => id >= from && id <= to) })),
  });
  return [
    ...sharedItems(part(lo ?? 0, middle - 1), lo ?? 0, middle - 1),
    ...sharedItems(part(middle, hi ?? Number.MAX_SAFE_INTEGER), middle, hi),
  ];
};

/**
 * Delivers to each listed user their own version of an event (a message event with the user's own
 * `flags`); a user listed twice gets the first of their events. `others`, if given, is the version
 * for every other user of the organization (each queue's filters then decide, as for a public
 * channel's message to `all_public_streams` queues); it makes the send one shared append.
 *
 * Writes: when the users' shards and the public-copy shard are no more than the users (plus one
 * with `others`), and some versions are shared by several users (or `others`), one shared item
 * on each of those shards (more only for an audience too large for one item); otherwise one
 * append per user to their own stream, and with `others` one item on the public-copy shard for
 * everyone else. At most FANOUT_CONCURRENCY appends at a time.
 */
export const sendEventPerRecipient = async (
  realmId: number,
  deliveries: { userId: number; event: ApiEvent }[],
  opts: { others?: ApiEvent; identity?: DeliveryIdentity } = {},
): Promise<void> => {
  const seen = new Set<number>();
  const unique = deliveries.filter(({ userId }) => !seen.has(userId) && seen.add(userId));
  if (unique.length === 0 && !opts.others) return;
  const shards = recipientShards(
    realmId,
    unique.map((d) => d.userId),
  );
  // Shared when it takes no more appends than one per user (and one for everyone else's version).
  if (shards.length <= unique.length + (opts.others ? 1 : 0)) {
    const versions = shareVersions(unique, opts.others);
    if (opts.others || versions.groups.length < unique.length) {
      const items = sharedItems(versions);
      await appendAll(
        shards.flatMap((stream) => items.map((event) => ({ stream, event }))),
        opts.identity,
      );
      return;
    }
  }
  const own = unique.map(({ userId, event }) => ({ stream: eventKeys.userStream(userId), event: serializable(event) }));
  // Everyone else's version: on the public-copy shard, leaving out the users served above.
  const othersItems = opts.others
    ? sharedItems({
        base: serializable(opts.others),
        groups: [{ userIds: unique.map((d) => d.userId), edits: [], none: true }],
        others: [],
      })
    : [];
  await appendAll([...own, ...othersItems.map((event) => ({ stream: publicCopyStream(realmId), event }))], opts.identity);
};
