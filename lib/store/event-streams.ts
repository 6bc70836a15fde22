// Event streams: an append-only log per organization (events for all its users) and per user.
// A producer allocates the next sequence number on the stream's head item, then writes the event
// under it. A reader that finds a number allocated but never written (a producer that died between
// the two writes, or an allocation whose answer was lost, which the SDK's retry allocates again)
// fills it with a tombstone a fixed time after its allocation; the producer's own write is
// conditional, so it then takes a new number: nothing is lost and nothing is read twice. When each
// number was allocated is known without a write of its own: the head keeps the time of the last
// allocation (`allocMs`), and each event keeps the time of the allocation before its own
// (`prevAllocMs`, the head's `allocMs` when its number was taken), so the numbers missing before a
// written event were all allocated by its `prevAllocMs`, and those past the last written one by the
// head's `allocMs`.
//
// The bell: a waiting poll checks one item, its organization stream shard's head. A queue's
// registration records that shard head on its owner's stream head (`bells`); an append to a user's
// stream then rings each shard head recorded there, after the event is written: it adds 1 to the
// head's `bell` and to one of its SUB_BELLS sub-bells, chosen by the user stream's name. A change
// of a shard head's `bell` wakes its waiting polls; only those whose own sub-bell changed read
// their user stream, so a user's event costs the reads of about 1/SUB_BELLS of the shard's
// waiting clients, not all of them. A user with no queue rings nothing.
import { BatchGetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiEvent } from '../models/event';
import { documentClient, tableName } from './client';
import { sendConditional } from './common';
import { eventKeys } from './keys';

/** Stream events outlive the longest-lived queue (7 days idle) by a day. */
export const STREAM_EVENT_TTL_SECONDS = 8 * 86400;

/**
 * `bell` counts appends to the user streams of the queues reading this (organization shard)
 * stream; `rings` the same per sub-bell (`subBellOf`), absent ones 0.
 */
export type StreamHead = { stream: string; seq: number; allocMs: number; bell: number; rings: Record<string, number> };

/** Sub-bells per shard head: about 1.2 KB of counters, so a head read stays one 4 KB read unit. */
export const SUB_BELLS = 128;

/** The sub-bell of a shard head that appends to `userStream` ring (an FNV-1a hash of its name). */
export const subBellOf = (userStream: string): string => {
  let h = 0x811c9dc5;
  for (let i = 0; i < userStream.length; i += 1) h = Math.imul(h ^ userStream.charCodeAt(i), 0x01000193);
  return `b${(h >>> 0) % SUB_BELLS}`;
};

/** How many times appends to `userStream` (and the others sharing its sub-bell) rang this head. */
export const ringsFor = (head: StreamHead, userStream: string): number => head.rings[subBellOf(userStream)] ?? 0;
/** `prevAllocMs`: when the number before this one was allocated (so also every missing number before it). */
export type StreamEvent = { stream: string; seq: number; ts: number; prevAllocMs: number; event: ApiEvent | null };

/** A stored event item as a StreamEvent (an item written before `prevAllocMs` was kept: its `ts`, close to it). */
const toStreamEvent = (stream: string, item: Record<string, unknown>): StreamEvent => ({
  stream,
  seq: Number(item.seq),
  ts: Number(item.ts),
  prevAllocMs: Number(item.prevAllocMs ?? item.ts),
  event: (item.event as ApiEvent | undefined) ?? null,
});

/**
 * Allocates the next sequence number of a stream; `bells` are the heads to ring once it is written,
 * `prevAllocMs` when the number before it was allocated (the head as it was: ALL_OLD).
 */
const allocateRinging = async (stream: string, nowMs: number): Promise<{ seq: number; bells: string[]; prevAllocMs: number }> => {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: eventKeys.streamHead(stream),
      UpdateExpression: 'ADD seq :one SET allocMs = :now',
      ExpressionAttributeValues: { ':one': 1, ':now': nowMs },
      ReturnValues: 'ALL_OLD',
    }),
  );
  const bells = out.Attributes?.bells as Set<string> | undefined;
  return { seq: Number(out.Attributes?.seq ?? 0) + 1, bells: bells ? [...bells] : [], prevAllocMs: Number(out.Attributes?.allocMs ?? 0) };
};

/** Allocates the next sequence number of a stream. */
export const allocate = async (stream: string, nowMs: number): Promise<number> => (await allocateRinging(stream, nowMs)).seq;

/** Makes appends to `stream` (a user's) ring `bellStream`'s head (the shard a queue of the user reads). */
export const addBell = async (stream: string, bellStream: string): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: eventKeys.streamHead(stream),
      UpdateExpression: 'ADD bells :bell',
      ExpressionAttributeValues: { ':bell': new Set([bellStream]) },
    }),
  );
};

/** Rings a shard head for an append to `userStream`: its bell and the stream's sub-bell. */
const ring = async (bellStream: string, userStream: string): Promise<void> => {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: eventKeys.streamHead(bellStream),
      UpdateExpression: 'ADD bell :one, #sub :one',
      ExpressionAttributeNames: { '#sub': subBellOf(userStream) },
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
};

/** Writes an event (or a tombstone, event null) under an allocated number; false if it is taken. */
export const writeAt = async (
  stream: string,
  seq: number,
  event: ApiEvent | null,
  nowMs: number,
  /**
   * When the number before `seq` was allocated, or any later time (a tombstone: the time its
   * reader knew the missing numbers before it were allocated by).
   */
  prevAllocMs: number,
  /** The event's place in send order across streams (queues merge their two streams by it). */
  ts: number = nowMs,
  /** The event's identity, for a later delivery of the same events to find it (recentIdentities). */
  eid?: string,
): Promise<boolean> => {
  return sendConditional(
    new PutCommand({
      TableName: tableName('events'),
      Item: {
        ...eventKeys.streamEvent(stream, seq),
        seq,
        ts,
        prevAllocMs,
        ...(event ? { event } : { tombstone: true }),
        ...(eid !== undefined ? { eid } : {}),
        expiresAt: Math.floor(nowMs / 1000) + STREAM_EVENT_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/**
 * Appends an event to a stream, taking a new number if a reader tombstoned the first one, then
 * rings the stream's bells.
 */
export const append = async (stream: string, event: ApiEvent, nowMs: () => number, ts?: number, eid?: string): Promise<number> => {
  for (let attempt = 0; ; attempt += 1) {
    const { seq, bells, prevAllocMs } = await allocateRinging(stream, nowMs());
    const now = nowMs();
    if (await writeAt(stream, seq, event, now, prevAllocMs, ts ?? now, eid)) {
      await Promise.all(bells.map((b) => ring(b, stream)));
      return seq;
    }
    if (attempt >= 5) throw new Error(`could not append to ${stream}`);
  }
};

/** The most events recentIdentities reads back from one stream: a delivery resumed within minutes finds its own far sooner. */
const MAX_RECENT_EVENTS = 5_000;

/**
 * The identities (`eid`) of the events appended to a stream at or after `sinceTs` (their `ts`),
 * newest first until an older one: what an earlier, interrupted delivery wrote there.
 */
export const recentIdentities = async (stream: string, sinceTs: number): Promise<Set<string>> => {
  const found = new Set<string>();
  const k = eventKeys.streamEventsAfter(stream, 0);
  let read = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName('events'),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :end',
        ExpressionAttributeValues: { ':pk': k.pk, ':after': k.skAfter, ':end': k.skEnd },
        ProjectionExpression: 'eid, ts',
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: 500,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) {
      if (Number(item.ts) < sinceTs) return found;
      if (typeof item.eid === 'string') found.add(item.eid);
    }
    read += out.Items?.length ?? 0;
    start = out.LastEvaluatedKey;
  } while (start && read < MAX_RECENT_EVENTS);
  if (start) throw new Error(`${stream}: more than ${MAX_RECENT_EVENTS} events since ${sinceTs}`);
  return found;
};

/**
 * The heads of several streams (at most 100) in one request, again for any DynamoDB leaves
 * unprocessed (a missing head is a stream with no event: seq 0).
 */
export const getHeads = async (streams: string[], opts: { consistent?: boolean } = {}): Promise<Map<string, StreamHead>> => {
  const name = tableName('events');
  const heads = new Map<string, StreamHead>(streams.map((s) => [s, { stream: s, seq: 0, allocMs: 0, bell: 0, rings: {} }]));
  let keys: Record<string, unknown>[] = streams.map(eventKeys.streamHead);
  while (keys.length > 0) {
    const out = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [name]: { Keys: keys, ConsistentRead: opts.consistent ?? false } } }),
    );
    for (const item of out.Responses?.[name] ?? []) {
      const rings: Record<string, number> = {};
      for (const [attr, value] of Object.entries(item)) if (/^b\d+$/.test(attr)) rings[attr] = Number(value);
      heads.set(String(item.pk), {
        stream: String(item.pk),
        seq: Number(item.seq ?? 0),
        allocMs: Number(item.allocMs ?? 0),
        bell: Number(item.bell ?? 0),
        rings,
      });
    }
    keys = out.UnprocessedKeys?.[name]?.Keys ?? [];
    // DynamoDB left some unread (throttled): a moment before asking again.
    if (keys.length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return heads;
};

/** Reads of `readAfter` in flight, by stream, number and limit, with when each was sent (performance.now()). */
const inFlight = new Map<string, { startedMs: number; read: Promise<StreamEvent[]> }>();

/**
 * Events of a stream after a sequence number, in order (at most `limit`), as read by a request
 * sent at or after `startedAfter` (performance.now()): a concurrent identical read sent since then
 * is shared (the waiting polls of one process woken by the same reading of their shard head read
 * its new events once). A caller that needs what was written before some moment passes that
 * moment; without it, the read is its own.
 */
export const readAfter = (stream: string, afterSeq: number, limit: number, startedAfter = Infinity): Promise<StreamEvent[]> => {
  const key = `${stream}|${afterSeq}|${limit}`;
  const pending = inFlight.get(key);
  if (pending && pending.startedMs >= startedAfter) return pending.read;
  const entry = { startedMs: performance.now(), read: queryAfter(stream, afterSeq, limit) };
  inFlight.set(key, entry);
  void entry.read
    .finally(() => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    })
    .catch(() => undefined);
  return entry.read;
};

const queryAfter = async (stream: string, afterSeq: number, limit: number): Promise<StreamEvent[]> => {
  const k = eventKeys.streamEventsAfter(stream, afterSeq);
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('events'),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :end',
      ExpressionAttributeValues: { ':pk': k.pk, ':after': k.skAfter, ':end': k.skEnd },
      ConsistentRead: true,
      Limit: limit + 1,
    }),
  );
  return (out.Items ?? [])
    .filter((item) => Number(item.seq) > afterSeq)
    .slice(0, limit)
    .map((item) => toStreamEvent(stream, item));
};

/** Several stored events by number, keyed `stream|seq`. */
export const getEvents = async (refs: { stream: string; seq: number }[]): Promise<Map<string, StreamEvent>> => {
  const name = tableName('events');
  const found = new Map<string, StreamEvent>();
  for (let i = 0; i < refs.length; i += 100) {
    let pending: Record<string, unknown>[] = refs.slice(i, i + 100).map((r) => eventKeys.streamEvent(r.stream, r.seq));
    while (pending.length > 0) {
      const out = await documentClient().send(new BatchGetCommand({ RequestItems: { [name]: { Keys: pending } } }));
      for (const item of out.Responses?.[name] ?? []) {
        const stream = String(item.pk);
        found.set(`${stream}|${Number(item.seq)}`, toStreamEvent(stream, item));
      }
      pending = out.UnprocessedKeys?.[name]?.Keys ?? [];
    }
  }
  return found;
};
