// Event streams: an append-only log per organization (events for all its users) and per user.
// A producer allocates the next sequence number on the stream's head item, then writes the event
// under it. A reader that finds a number allocated but never written (a producer that died between
// the two writes) fills it with a tombstone after a grace period; the producer's own write is
// conditional, so it then takes a new number: nothing is lost and nothing is read twice.
import { BatchGetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiEvent } from '../models/event';
import { documentClient, tableName } from './client';
import { sendConditional } from './common';
import { eventKeys } from './keys';

/** Stream events outlive the longest-lived queue (7 days idle) by a day. */
export const STREAM_EVENT_TTL_SECONDS = 8 * 86400;

export type StreamHead = { stream: string; seq: number; allocMs: number };
export type StreamEvent = { stream: string; seq: number; ts: number; event: ApiEvent | null };


/** Allocates the next sequence number of a stream. */
export const allocate = async (stream: string, nowMs: number): Promise<number> => {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('events'),
      Key: eventKeys.streamHead(stream),
      UpdateExpression: 'ADD seq :one SET allocMs = :now',
      ExpressionAttributeValues: { ':one': 1, ':now': nowMs },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.seq);
};

/** Writes an event (or a tombstone, event null) under an allocated number; false if it is taken. */
export const writeAt = async (stream: string, seq: number, event: ApiEvent | null, nowMs: number): Promise<boolean> => {
  return sendConditional(
    new PutCommand({
      TableName: tableName('events'),
      Item: {
        ...eventKeys.streamEvent(stream, seq),
        seq,
        ts: nowMs,
        ...(event ? { event } : { tombstone: true }),
        expiresAt: Math.floor(nowMs / 1000) + STREAM_EVENT_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
};

/** Appends an event to a stream, taking a new number if a reader tombstoned the first one. */
export const append = async (stream: string, event: ApiEvent, nowMs: () => number): Promise<number> => {
  for (let attempt = 0; ; attempt += 1) {
    const seq = await allocate(stream, nowMs());
    if (await writeAt(stream, seq, event, nowMs())) return seq;
    if (attempt >= 5) throw new Error(`could not append to ${stream}`);
  }
};

/** The heads of several streams in one request (a missing head is a stream with no event: seq 0). */
export const getHeads = async (streams: string[], opts: { consistent?: boolean } = {}): Promise<Map<string, StreamHead>> => {
  const name = tableName('events');
  const out = await documentClient().send(
    new BatchGetCommand({
      RequestItems: {
        [name]: {
          Keys: streams.map(eventKeys.streamHead),
          ProjectionExpression: 'pk, seq, allocMs',
          ConsistentRead: opts.consistent ?? false,
        },
      },
    }),
  );
  const heads = new Map<string, StreamHead>(streams.map((s) => [s, { stream: s, seq: 0, allocMs: 0 }]));
  for (const item of out.Responses?.[name] ?? []) {
    heads.set(String(item.pk), { stream: String(item.pk), seq: Number(item.seq ?? 0), allocMs: Number(item.allocMs ?? 0) });
  }
  return heads;
};

/** Events of a stream after a sequence number, in order (at most `limit`). */
export const readAfter = async (stream: string, afterSeq: number, limit: number): Promise<StreamEvent[]> => {
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
    .map((item) => ({ stream, seq: Number(item.seq), ts: Number(item.ts), event: (item.event as ApiEvent | undefined) ?? null }));
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
        found.set(`${stream}|${Number(item.seq)}`, { stream, seq: Number(item.seq), ts: Number(item.ts), event: (item.event as ApiEvent | undefined) ?? null });
      }
      pending = out.UnprocessedKeys?.[name]?.Keys ?? [];
    }
  }
  return found;
};
