// The event queue engine: register, poll (with long-polling), acknowledge, delete.
//
// A queue reads two streams: its organization's and its owner's. Polling moves new stream events
// into the queue as refs with queue-local ids (0, 1, 2, …), keeps them until the client
// acknowledges them with last_event_id, and returns them. A waiting poll only reads the head of its
// organization stream shard (one item, whose sub-bells also tell of its user stream), through the
// process's shared reader, until something new arrives or the bound passes, when it returns a
// heartbeat carrying the last id the client acknowledged (no new id: docs/data-model.md,
// "Heartbeats"). A poll that starts where the process's last reading of that head shows nothing new
// (and its queue's `bellSeen` no ring of its owner's sub-bell) reads neither stream; an idle cycle
// is then one eventually consistent queue read and no write: the queue is written only to take
// events, to record an acknowledgement of events not acknowledged before, or to refresh its lease
// (leaseRefreshMs).
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { nowMs } from '../clock';
import { BadEventQueueIdError, BadRequestError } from '../errors';
import type { User } from '../models/user';
import * as queuesStore from '../store/event-queues';
import type { QueueRef, QueueState } from '../store/event-queues';
import * as streams from '../store/event-streams';
import { eventKeys } from '../store/keys';
import { eventForQueue } from './event-filters';
import { publicCopyStream, userShardStream } from './send';
import { lastReading, type HeadReading } from './watcher';
import { pollHeads, type WaitStrategy } from './wait';
import type { ApiEvent, QueueDescriptor } from '../models/event';

export { POLL_INTERVAL_GROWTH } from './watcher';

/**
 * A number allocated on a stream but not written this long after its allocation belongs to a
 * producer that died (or to an allocation the SDK made again after its answer was lost): readers
 * skip it. Measured from the allocation itself, so neither later allocations nor polls postpone it,
 * and a waiting poll stopped at one reads again when it passes: the events behind an orphaned
 * number wait at most this long (`npm run bench gap`). A live producer slower than this (its write
 * throttled or retried) finds its number taken and appends under a new one: later, never lost.
 */
export const GAP_DEADLINE_MS = 1500;
/** Stream events read per stream per round. */
const READ_BATCH = 100;
/** A queue holds at most this many unacknowledged events; past it, it stops taking new ones. */
const MAX_HELD_EVENTS = 1000;
/**
 * A poll reads its user stream whatever its sub-bell says in one of every this many long-poll
 * periods (rereadDue): an event whose producer died between writing it and ringing is delivered
 * within about this many long-polls, never lost.
 */
export const USER_REREAD_EVERY = 8;
/** The longest a polled queue goes without its lease (`lastConnMs`, the item's TTL) being written. */
export const MAX_LEASE_REFRESH_MS = 5 * 60_000;
/** What a client takes between one poll's answer and its next poll, at most, as the lease allows for it. */
const REPOLL_ALLOWANCE_MS = 10_000;

/**
 * How stale a queue's lease may be before a long-poll writes it again: at most
 * MAX_LEASE_REFRESH_MS, and less for a short timeout, so that a client polling without pause never
 * finds its queue expired (the lease is at most this plus a poll and the way back behind). A queue
 * not polled for its timeout is expired at its next read (isExpired); one abandoned right after a
 * poll that did not write expires up to this much before its timeout has passed since that poll.
 */
export const leaseRefreshMs = (q: Pick<QueueState, 'timeoutSecs'>): number =>
  Math.max(0, Math.min(MAX_LEASE_REFRESH_MS, q.timeoutSecs * 1000 - config.longPollSeconds() * 1000 - REPOLL_ALLOWANCE_MS));

const leaseDue = (q: QueueState): boolean => nowMs() - q.lastConnMs >= leaseRefreshMs(q);

/**
 * Whether this poll reads its owner's user stream whatever the sub-bell says: in one long-poll
 * period of every USER_REREAD_EVERY, offset per queue so that the queues of a process spread them.
 */
export const rereadDue = (queueId: string): boolean => {
  const period = Math.floor(nowMs() / (config.longPollSeconds() * 1000));
  const offset = [...queueId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % USER_REREAD_EVERY, 0);
  return (period + offset) % USER_REREAD_EVERY === 0;
};

export type ApiEventWithId = ApiEvent & { id: number };

/** Whose queue: all the engine needs of its owner. */
export type QueueOwner = Pick<User, 'id' | 'realmId'>;

/**
 * The two streams a queue reads: its shard of the organization's stream (chosen by its owner's id,
 * or the public-copy shard for an all_public_streams queue: lib/events/send.ts; kept in its
 * cursors once registered) and its owner's.
 */
const streamsOf = (
  q: Pick<QueueDescriptor, 'realmId' | 'userId'> & { allPublicStreams?: boolean; cursors?: Record<string, number> },
): string[] => {
  const userStream = eventKeys.userStream(q.userId);
  const started = q.cursors ? Object.keys(q.cursors).find((s) => s !== userStream) : undefined;
  return [started ?? shardFor(q), userStream];
};

/** The shard a queue of this owner reads under the present shard count. */
const shardFor = (q: Pick<QueueDescriptor, 'realmId' | 'userId'> & { allPublicStreams?: boolean }): string =>
  q.allPublicStreams ? publicCopyStream(q.realmId) : userShardStream(q.realmId, q.userId);

const isExpired = (q: QueueState): boolean => nowMs() - q.lastConnMs >= q.timeoutSecs * 1000;

/** Creates a queue for `user`, starting after every event already sent. */
export const registerQueue = async (
  user: User,
  descriptor: Omit<QueueDescriptor, 'queueId' | 'realmId' | 'userId'>,
): Promise<QueueState> => {
  const base = { realmId: user.realmId, userId: user.id };
  // The bell first, so that every user event after the heads read below rings this queue's shard.
  const [shardStream, userStream] = streamsOf({ ...base, allPublicStreams: descriptor.allPublicStreams });
  await streams.addBell(userStream, shardStream);
  const heads = await streams.getHeads([shardStream, userStream], { consistent: true });
  const state: QueueState = {
    ...descriptor,
    ...base,
    queueId: randomUUID(),
    cursors: Object.fromEntries([...heads.values()].map((h) => [h.stream, h.seq])),
    nextId: 0,
    ackedThrough: -1,
    refs: [],
    lastConnMs: nowMs(),
    version: 0,
    // The user stream is read up to its head, so through the rings its sub-bell had then (it rings
    // after each write): idle polls, which write nothing, need not read it until it rings again.
    bellSeen: streams.ringsFor(heads.get(shardStream)!, userStream),
  };
  await queuesStore.create(state);
  return state;
};

/** Loads a live queue owned by `user` (consistently unless `consistent` is false); anything else is BAD_EVENT_QUEUE_ID. */
const accessQueue = async (user: QueueOwner, queueId: string, consistent = true): Promise<QueueState> =>
  // A queue id too long for a key names no queue: the store finds none (lookupKey).
  checkOwned(user, queueId, await queuesStore.get(queueId, consistent)) ?? throwBadQueue(queueId);

const throwBadQueue = (queueId: string): never => {
  throw new BadEventQueueIdError(queueId);
};

/** The queue read, if it is live and `user`'s under the present shard count. */
const checkOwned = (user: QueueOwner, queueId: string, state: QueueState | undefined): QueueState | undefined => {
  if (!state || state.queueId !== queueId || state.userId !== user.id || state.realmId !== user.realmId || isExpired(state))
    return undefined;
  // Registered under another shard count (EVENTS_REALM_SHARDS changed since): the events for its
  // owner now go to another shard, so the client registers again, as for an expired queue.
  if (streamsOf(state)[0] !== shardFor(state)) return undefined;
  return state;
};

/** Applies a change computed from the current state, re-reading and recomputing on a conflict. */
const mutate = async (user: QueueOwner, state: QueueState, change: (s: QueueState) => Partial<QueueState> | null): Promise<QueueState> => {
  let current = state;
  for (;;) {
    const changes = change(current);
    if (changes === null) return current;
    if (await queuesStore.update(current, changes)) return { ...current, ...changes, version: current.version + 1 };
    current = await accessQueue(user, current.queueId);
  }
};

/** Stream events this request already read (keyed `stream|seq`), so it does not read them twice. */
type ReadCache = Map<string, streams.StreamEvent>;

/**
 * Fills a missing stream number with a tombstone once GAP_DEADLINE_MS has passed since
 * `allocatedBy`, a time it is known to have been allocated by: 'wait' before that, 'tombstoned',
 * or 'taken' when something was written there first (another reader's tombstone, or the late
 * producer's event: a new read tells which).
 */
const resolveGap = async (stream: string, seq: number, allocatedBy: number): Promise<'wait' | 'tombstoned' | 'taken'> => {
  const now = nowMs();
  if (now - allocatedBy < GAP_DEADLINE_MS) return 'wait';
  return (await streams.writeAt(stream, seq, null, now, allocatedBy)) ? 'tombstoned' : 'taken';
};

/**
 * New events of one stream after `cursor`, stopping at a number allocated but not yet written
 * whose deadline has not passed. A missing number before a written event was allocated by that
 * event's `prevAllocMs`. `knownHead` (from a waiting poll's check) lets it also settle numbers
 * allocated past the last written event (by the head's `allocMs`); without it those wait until a
 * later event shows them as a gap.
 */
type StreamRead = {
  events: streams.StreamEvent[];
  cursor: number;
  /** Stopped at a missing number: when its deadline passes (a waiting poll reads again then). */
  gapDueMs?: number;
  /** Read to the end of what was written (not stopped by a gap nor by READ_BATCH). */
  complete: boolean;
};

const readStream = async (
  stream: string,
  cursor: number,
  knownHead: streams.StreamHead | undefined,
  /** The read must have been sent after this (performance.now()): a concurrent one sent since is shared (streams.readAfter). */
  sentAfter: number,
): Promise<StreamRead> => {
  const items = await streams.readAfter(stream, cursor, READ_BATCH, sentAfter);
  const events: streams.StreamEvent[] = [];
  let expected = cursor + 1;
  /** Settles the missing number `expected`: 'next', the read so far when it must wait, or the read from it again when it was taken meanwhile. */
  const settle = async (allocatedBy: number): Promise<StreamRead | 'next'> => {
    const outcome = await resolveGap(stream, expected, allocatedBy);
    if (outcome === 'tombstoned') return 'next';
    if (outcome === 'wait') return { events, cursor: expected - 1, gapDueMs: allocatedBy + GAP_DEADLINE_MS, complete: false };
    const rest = await readStream(stream, expected - 1, knownHead, Infinity);
    return { ...rest, events: [...events, ...rest.events] };
  };
  for (const item of items) {
    while (item.seq > expected) {
      const settled = await settle(item.prevAllocMs);
      if (settled !== 'next') return settled;
      expected += 1;
    }
    if (item.event) events.push(item);
    expected = item.seq + 1;
  }
  // Numbers allocated past the last written event: a producer between its two writes.
  while (items.length < READ_BATCH && knownHead && knownHead.seq >= expected) {
    const settled = await settle(knownHead.allocMs);
    if (settled !== 'next') return settled;
    expected += 1;
  }
  return { events, cursor: expected - 1, complete: items.length < READ_BATCH };
};

/** What one ingest knows and carries besides the queue. */
type IngestOptions = {
  /** Refresh the queue's idle clock with the write. */
  touch: boolean;
  /** Heads just read: a stream whose head is at or before its cursor has nothing to read. */
  heads?: Map<string, streams.StreamHead>;
  /**
   * When the reading behind `heads` and `bellAt` was done (performance.now()): a stream read sent
   * since then may be shared with other polls of the process; without it, reads are the poll's own.
   */
  readDoneAt?: number;
  /** The owner's user stream is known to have nothing new: no read. */
  userQuiet?: boolean;
  /**
   * The owner's sub-bell rings as read before this ingest: once the user stream is read to its end
   * (or known quiet), the queue's `bellSeen` becomes this.
   */
  bellAt?: number;
  cache?: ReadCache;
  /** An acknowledgement not yet written (applied to `state` in memory): this write carries it. */
  deferredAck?: number;
  /** Told when a stream read stopped at a missing number, with when its deadline passes. */
  onGap?: (dueMs: number) => void;
};

/**
 * Moves new stream events into the queue (those its filters accept), in send order. The queue
 * returned carries the `bellSeen` its user stream read earned, written with its events or, when
 * nothing was new, left for the poll's one write.
 */
const ingest = async (user: QueueOwner, state: QueueState, opts: IngestOptions): Promise<QueueState> => {
  if (state.refs.length >= MAX_HELD_EVENTS) return state;
  const [, userStream] = streamsOf(state);
  const reads = await Promise.all(
    streamsOf(state).map((s) => {
      const cursor = state.cursors[s] ?? 0;
      const known = opts.heads?.get(s);
      const quiet = (s === userStream && opts.userQuiet) || (known !== undefined && known.seq <= cursor);
      return quiet
        ? Promise.resolve<StreamRead>({ events: [], cursor, complete: true })
        : readStream(s, cursor, known, opts.readDoneAt ?? Infinity);
    }),
  );
  for (const e of reads.flatMap((r) => r.events)) opts.cache?.set(`${e.stream}|${e.seq}`, e);
  for (const r of reads) if (r.gapDueMs !== undefined) opts.onGap?.(r.gapDueMs);
  const bellSeen = opts.bellAt !== undefined && reads[1].complete ? Math.max(opts.bellAt, state.bellSeen ?? 0) : state.bellSeen;
  const cursors = Object.fromEntries(streamsOf(state).map((s, i) => [s, reads[i].cursor]));
  const advanced = streamsOf(state).some((s) => cursors[s] !== (state.cursors[s] ?? 0));
  if (!advanced) return { ...state, bellSeen };
  const accepted = reads
    .flatMap((r) => r.events)
    .filter((e) => e.event !== null && eventForQueue(state, e.event) !== null)
    .sort((a, b) => a.ts - b.ts || a.stream.localeCompare(b.stream) || a.seq - b.seq);
  const refs: QueueRef[] = accepted.map((e, i) => ({ id: state.nextId + i, stream: e.stream, seq: e.seq }));
  const changes: Partial<QueueState> = {
    cursors,
    refs: [...state.refs, ...refs],
    nextId: state.nextId + refs.length,
    ackedThrough: state.ackedThrough,
    ...(opts.touch ? { lastConnMs: nowMs() } : {}),
    ...(bellSeen !== undefined ? { bellSeen } : {}),
  };
  if (await queuesStore.update(state, changes)) return { ...state, ...changes, version: state.version + 1 };
  // Another poll of this queue moved first: start again from what it wrote.
  const reloaded = await accessQueue(user, state.queueId);
  return ingest(user, opts.deferredAck === undefined ? reloaded : withAck(reloaded, opts.deferredAck), opts);
};

/** The events the queue holds, with their ids, shaped for the queue. */
const materialize = async (state: QueueState, cache: ReadCache = new Map()): Promise<ApiEventWithId[]> => {
  const streamRefs = state.refs.filter((r): r is Extract<QueueRef, { stream: string }> => 'stream' in r);
  const missing = streamRefs.filter((r) => !cache.has(`${r.stream}|${r.seq}`));
  const stored = new Map([...cache, ...(missing.length > 0 ? await streams.getEvents(missing) : [])]);
  const out: ApiEventWithId[] = [];
  for (const ref of state.refs) {
    if ('heartbeat' in ref) {
      out.push({ type: 'heartbeat', id: ref.id });
      continue;
    }
    const event = stored.get(`${ref.stream}|${ref.seq}`)?.event;
    const shaped = event ? eventForQueue(state, event) : null;
    if (shaped) out.push({ ...shaped, id: ref.id });
  }
  return out;
};

/** Upstream's acknowledgement rules: prune every event up to `lastEventId`. */
const checkAcknowledgement = (state: QueueState, lastEventId: number): void => {
  if (lastEventId < state.ackedThrough) throw new BadRequestError(`An event newer than ${state.ackedThrough} has already been pruned!`);
  if (lastEventId > state.ackedThrough && lastEventId >= state.nextId)
    throw new BadRequestError(`Event ${lastEventId} was not in this queue`);
};

/**
 * `maxWaitMs` shortens the long-poll bound (for a function about to run out of time); `read` is
 * the queue item as authentication just read it (eventually consistently), if it did.
 */
export type FetchOptions = { queueId: string; lastEventId: number; dontBlock: boolean; maxWaitMs?: number; read?: QueueState };

/** The queue with events up to `lastEventId` pruned, in memory (its `version` still the stored one's). */
const withAck = (s: QueueState, lastEventId: number): QueueState => {
  const acked = Math.max(s.ackedThrough, lastEventId);
  return { ...s, ackedThrough: acked, refs: s.refs.filter((r) => r.id > acked) };
};

/** The changes that write a pruning computed in memory. */
const pruned = (s: QueueState): Partial<QueueState> => ({ ackedThrough: s.ackedThrough, refs: s.refs });

/** Acknowledges events up to `lastEventId` (upstream's pruning), refreshing the idle clock if `touch`. */
const acknowledge = async (user: QueueOwner, state: QueueState, lastEventId: number, touch: boolean): Promise<QueueState> => {
  checkAcknowledgement(state, lastEventId);
  return mutate(user, state, (s) => {
    checkAcknowledgement(s, lastEventId);
    const acked = Math.max(s.ackedThrough, lastEventId);
    if (acked === s.ackedThrough && !touch) return null;
    return { ackedThrough: acked, refs: s.refs.filter((r) => r.id > acked), ...(touch ? { lastConnMs: nowMs() } : {}) };
  });
};

/**
 * GET /events: acknowledges events up to `lastEventId`, then returns every event the queue holds.
 * With nothing to return and `dontBlock` false, waits (with `wait`) until an event arrives or the
 * long-poll bound passes, then returns a heartbeat carrying `lastEventId` again. It writes the
 * queue only to take events, to record an acknowledgement of events it held, or to refresh the
 * lease of a long-polled queue when leaseRefreshMs has passed (a dont_block poll never refreshes it).
 */
export const fetchEvents = async (user: QueueOwner, opts: FetchOptions, wait: WaitStrategy = pollHeads): Promise<ApiEventWithId[]> => {
  const deadline = nowMs() + Math.min(opts.maxWaitMs ?? Infinity, config.longPollSeconds() * 1000);
  const touch = !opts.dontBlock;
  const loaded = await loadForPoll(user, opts);
  const acked = withAck(loaded, opts.lastEventId);
  const prunes = acked.refs.length !== loaded.refs.length;
  const refresh = touch && leaseDue(loaded);
  // A long-poll left with nothing after its acknowledgement writes it (and a due lease) with the
  // events it takes, or at its end. A poll cut off before either leaves both to the client's next
  // poll, which sends the same last_event_id.
  const deferredAck = touch && prunes && acked.refs.length === 0 ? opts.lastEventId : undefined;
  let state =
    (prunes && deferredAck === undefined) || (refresh && acked.refs.length > 0)
      ? await acknowledge(user, loaded, opts.lastEventId, refresh)
      : acked;
  const cache: ReadCache = new Map();
  const startedMs = nowMs();
  let gapDueMs: number | undefined;
  const onGap = (dueMs: number) => {
    gapDueMs = Math.min(gapDueMs ?? Infinity, dueMs);
  };
  const [shardStream, userStream] = streamsOf(state);
  /** Reads what `reading` (of the shard head) may show new, and the user stream unless `userQuiet`. */
  const ingestAfter = async (reading: HeadReading | undefined, userQuiet: boolean): Promise<QueueState> => {
    gapDueMs = undefined;
    const heads = reading ? new Map([[shardStream, reading.head]]) : undefined;
    const bellAt = reading ? streams.ringsFor(reading.head, userStream) : undefined;
    return ingest(user, state, { touch, heads, userQuiet, bellAt, readDoneAt: reading?.readDoneAt, cache, deferredAck, onGap });
  };
  // For a poll that will wait, the process's last reading of the shard head may spare both reads:
  // the shard stream when the head is at the cursor, the user stream when its sub-bell rang no
  // more than the queue has read (except when rereadDue). However old the reading, the wait's next
  // one shows what came since; a dont_block poll has no next one, so it reads.
  const known = opts.dontBlock ? undefined : lastReading(shardStream);
  const rings = known ? streams.ringsFor(known.head, userStream) : undefined;
  const reread = rereadDue(state.queueId);
  state = await ingestAfter(known, !reread && rings !== undefined && state.bellSeen !== undefined && rings <= state.bellSeen);
  if (state.refs.length > 0 || opts.dontBlock) return materialize(state, cache);

  const outcome = await wait({
    streams: streamsOf(state),
    cursors: () => state.cursors,
    bellSeen: () => state.bellSeen,
    deadline,
    startedMs,
    gapDueMs: () => gapDueMs,
    ingest: async (reading, readUser) => {
      state = await ingestAfter(reading, !readUser);
      return state.refs.length > 0;
    },
  });
  if (outcome === 'events') return materialize(state, cache);
  const heartbeat: ApiEventWithId = { type: 'heartbeat', id: Math.max(opts.lastEventId, state.ackedThrough) };
  // Nothing to record: the idle cycle writes nothing. (Events another poll of this queue took
  // meanwhile wait for the next poll, which sends the same last_event_id.)
  const ackPending = state.version === loaded.version && deferredAck !== undefined;
  if (!ackPending && !(touch && leaseDue(state))) return [heartbeat];
  const bellSeen = state.bellSeen;
  try {
    state = await mutate(user, state, (stored) => {
      const s = deferredAck === undefined ? stored : withAck(stored, deferredAck);
      // Events another poll added: answer with them, writing the acknowledgement if it prunes anything.
      if (s.refs.length > 0) return s.refs.length === stored.refs.length && s.ackedThrough === stored.ackedThrough ? null : pruned(s);
      return { ...pruned(s), lastConnMs: nowMs(), ...(bellSeen !== undefined ? { bellSeen } : {}) };
    });
  } catch (error) {
    // The queue was deleted while the poll waited (DELETE /events, or its owner deactivated).
    if (error instanceof BadEventQueueIdError) return [];
    throw error;
  }
  return state.refs.length > 0 ? materialize(state, cache) : [heartbeat];
};

/**
 * The queue for a poll: read eventually consistently (half a read unit), and again consistently
 * when that read finds no live queue or an acknowledgement it cannot take, which a read older
 * than the client's last poll may show. A stale queue read otherwise is safe: every write is
 * conditional on the version read, and re-reads consistently when it lost.
 */
const loadForPoll = async (user: QueueOwner, opts: FetchOptions): Promise<QueueState> => {
  const quick = opts.read ? checkOwned(user, opts.queueId, opts.read) : await accessQueue(user, opts.queueId, false).catch(() => undefined);
  if (quick) {
    try {
      checkAcknowledgement(quick, opts.lastEventId);
      return quick;
    } catch {
      // Read again below.
    }
  }
  const loaded = await accessQueue(user, opts.queueId);
  checkAcknowledgement(loaded, opts.lastEventId);
  return loaded;
};

/**
 * POST /register's catch-up, after it read the state: moves the queue's start to the streams'
 * current heads. `settled` is true when no event this queue would receive arrived since its
 * previous start, so the state just read and the queue agree. Otherwise the caller must read the
 * state again (which then includes every change up to the new start, since an action writes before
 * it sends its event) and may apply `events` (those skipped, shaped for the queue) to what it read
 * from an eventually consistent index. A number allocated but not yet written also unsettles it.
 */
export const settleQueueStart = async (user: QueueOwner, queueId: string): Promise<{ settled: boolean; events: ApiEvent[] }> => {
  const state = await accessQueue(user, queueId);
  const heads = await streams.getHeads(streamsOf(state), { consistent: true });
  let settled = true;
  const skipped: streams.StreamEvent[] = [];
  for (const stream of streamsOf(state)) {
    const from = state.cursors[stream] ?? 0;
    const to = heads.get(stream)!.seq;
    if (to <= from) continue;
    const window = to - from <= READ_BATCH ? await streams.readAfter(stream, from, to - from) : [];
    if (window.length !== to - from) settled = false;
    skipped.push(...window);
  }
  const events = skipped
    .sort((a, b) => a.ts - b.ts || a.stream.localeCompare(b.stream) || a.seq - b.seq)
    .flatMap((e) => {
      const shaped = e.event === null ? null : eventForQueue(state, e.event);
      return shaped ? [shaped] : [];
    });
  if (events.length > 0) settled = false;
  const cursors = Object.fromEntries(streamsOf(state).map((s) => [s, Math.max(state.cursors[s] ?? 0, heads.get(s)!.seq)]));
  await mutate(user, state, (s) => (s.refs.length > 0 || s.nextId > 0 ? null : { cursors }));
  return { settled, events };
};

/** DELETE /events: removes the caller's queue; an unknown, expired or foreign queue is BAD_EVENT_QUEUE_ID. */
export const deleteQueue = async (user: QueueOwner, queueId: string): Promise<void> => {
  await accessQueue(user, queueId);
  if (!(await queuesStore.remove(queueId, user.id))) throw new BadEventQueueIdError(queueId);
};

/**
 * Ends the event queues of a user who was deactivated (upstream deletes them): each is deleted,
 * so a later poll, even with valid credentials again after a reactivation, is BAD_EVENT_QUEUE_ID.
 * Returns how many were deleted.
 */
export const deleteQueuesOfUser = (userId: number): Promise<number> => queuesStore.removeQueuesOfUser(userId);
