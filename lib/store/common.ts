// Small helpers shared by the entity stores: paging a Query to the end, batched writes and reads,
// and id counters. Entity modules build their inputs with these; nothing else sends commands.
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { documentClient, tableName } from './client';
import { keys, type Key } from './keys';
import { mapLimited } from '../concurrency';

export type Item = Record<string, unknown>;

/** A query found more items than the bound its caller named. */
export class QueryBoundExceededError extends Error {
  constructor(
    readonly input: QueryCommandInput,
    readonly max: number,
  ) {
    super(`query of ${String(Object.values(input.ExpressionAttributeValues ?? {})[0])} has more than ${max} items`);
    this.name = 'QueryBoundExceededError';
  }
}

/**
 * How many items a query may return, which every caller names: `max`, the largest set the request
 * serves. With `overflow: 'throw'` (the default) finding more is an error (the bound was wrong, or
 * the data grew past what the path was built for: it fails instead of reading on); with
 * `'truncate'` the first `max` items in the query's order are the answer (a newest-first read
 * that only needs the most recent ones).
 */
export type QueryBound = { max: number; overflow?: 'throw' | 'truncate' };

/**
 * Runs a Query page by page, never asking DynamoDB for more than the bound: each page's `Limit` is
 * what remains of it (plus one item, when overflowing throws, to know there are more).
 */
export const queryAll = async (input: QueryCommandInput, bound: QueryBound): Promise<Item[]> => {
  const truncate = bound.overflow === 'truncate';
  const wanted = truncate ? bound.max : bound.max + 1;
  const items: Item[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const Limit = Math.min(input.Limit ?? Infinity, wanted - items.length);
    const page = await documentClient().send(new QueryCommand({ ...input, Limit, ExclusiveStartKey }));
    items.push(...((page.Items ?? []) as Item[]));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && items.length < wanted);
  if (items.length > bound.max) throw new QueryBoundExceededError(input, bound.max);
  return items;
};

/** The item under an exact key of the gsi1 index, which names one item (an API key, a subdomain, a link's key). */
export const getByGsi1Key = async (k: { gsi1pk: string; gsi1sk: string }): Promise<Item | undefined> => {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('main'),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ':sk': k.gsi1sk },
      Limit: 1,
    }),
  );
  return out.Items?.[0];
};

/** Items of one partition whose sort key starts with a prefix, at most `max` of them (see QueryBound). */
export const queryPrefix = (
  table: 'main' | 'events',
  pk: string,
  skPrefix: string,
  opts: QueryBound & { consistent?: boolean },
): Promise<Item[]> =>
  queryAll(
    {
      TableName: tableName(table),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ConsistentRead: opts.consistent ?? false,
    },
    { max: opts.max, overflow: opts.overflow },
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes items in batches of 25, retrying unprocessed ones with backoff; `concurrency` batches at
 * a time (one by default).
 */
export const batchPut = async (table: 'main' | 'events', items: Item[], opts: { concurrency?: number } = {}): Promise<void> => {
  const name = tableName(table);
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const writeBatch = async (batch: Item[]): Promise<void> => {
    let requests = batch.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [name]: requests } }));
      requests = (out.UnprocessedItems?.[name] ?? []) as typeof requests;
      if (requests.length > 0) await sleep(Math.min(1000, 20 * 2 ** attempt));
    }
  };
  await mapLimited(batches, opts.concurrency ?? 1, writeBatch);
};

/** Deletes items by key in batches of 25. */
export const batchDelete = async (table: 'main' | 'events', itemKeys: Key[]): Promise<void> => {
  const name = tableName(table);
  for (let i = 0; i < itemKeys.length; i += 25) {
    let requests = itemKeys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [name]: requests } }));
      requests = (out.UnprocessedItems?.[name] ?? []) as typeof requests;
      if (requests.length > 0) await sleep(Math.min(1000, 20 * 2 ** attempt));
    }
  }
};

/** Reads items by key in batches of 100 (order not preserved; missing items are left out). */
export const batchGet = async (table: 'main' | 'events', itemKeys: Key[], opts: { consistent?: boolean } = {}): Promise<Item[]> => {
  const name = tableName(table);
  const found: Item[] = [];
  for (let i = 0; i < itemKeys.length; i += 100) {
    let pending: Record<string, unknown>[] = itemKeys.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      const out = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [name]: { Keys: pending, ConsistentRead: opts.consistent ?? false } } }),
      );
      found.push(...((out.Responses?.[name] ?? []) as Item[]));
      pending = out.UnprocessedKeys?.[name]?.Keys ?? [];
      if (pending.length > 0) await sleep(Math.min(1000, 20 * 2 ** attempt));
    }
  }
  return found;
};

/** Allocates `count` new ids of an entity (global ids, as upstream's), returning the first. */
export const allocateIds = async (entity: string, count = 1): Promise<number> => {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: keys.counter(entity),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes?.value);
  return last - count + 1;
};

/** Whether a write was refused by its ConditionExpression. */
const isConditionFailure = (error: unknown): boolean => (error as Error).name === 'ConditionalCheckFailedException';

/** Whether two stored values are equal as DynamoDB keeps them (sets unordered, absent = undefined). */
export const sameValue = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (a instanceof Set || b instanceof Set) {
    if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
    const rest = [...b];
    return [...a].every((x) => {
      const i = rest.findIndex((y) => sameValue(x, y));
      return i >= 0 && rest.splice(i, 1).length === 1;
    });
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const defined = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
    const [ea, eb] = [defined(a), defined(b)];
    return ea.length === eb.length && ea.every(([k, v]) => sameValue(v, (b as Item)[k]));
  }
  return false;
};

const UNCHECKABLE = Symbol('uncheckable');

/** The value at a document path (`reactions.#k`, `#n0`, `tags[2]`) of an item, names resolved. */
const valueAt = (item: Item | undefined, path: string, names: Record<string, string> = {}): unknown => {
  let value: unknown = item;
  for (const part of path.trim().split('.')) {
    const match = /^([^[\]\s]+)((?:\[\d+\])*)$/.exec(part);
    if (!match) return UNCHECKABLE;
    value = (value as Item | undefined)?.[names[match[1]!] ?? match[1]!];
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) value = (value as unknown[] | undefined)?.[Number(index[1])];
  }
  return value;
};

/**
 * Whether `stored` shows every effect of an UpdateExpression made of `SET path = :value` and
 * `REMOVE path` clauses; false for anything it cannot check (ADD, DELETE, functions, arithmetic).
 */
const showsUpdate = (input: UpdateCommand['input'], stored: Item | undefined): boolean => {
  const names = input.ExpressionAttributeNames ?? {};
  const values = input.ExpressionAttributeValues ?? {};
  const clauses = (input.UpdateExpression ?? '').split(/\b(SET|REMOVE|ADD|DELETE)\s+/i).slice(1);
  if (clauses.length === 0) return false;
  for (let i = 0; i < clauses.length; i += 2) {
    const action = clauses[i]!.toUpperCase();
    const parts = clauses[i + 1]!.split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (action === 'SET') {
      for (const assignment of parts) {
        const match = /^(.+?)\s*=\s*(:\w+)$/.exec(assignment);
        if (!match || !(match[2]! in values)) return false;
        const found = valueAt(stored, match[1]!, names);
        if (found === UNCHECKABLE || !sameValue(found, values[match[2]!])) return false;
      }
    } else if (action === 'REMOVE') {
      if (!parts.every((path) => valueAt(stored, path, names) === undefined)) return false;
    } else return false;
  }
  return true;
};

/** What a write refused by its condition found stored (`ALL_OLD`): the item, or undefined when there is none. */
const storedItemOf = (error: unknown): Item | undefined | typeof UNCHECKABLE => {
  const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
  if (!raw) return undefined;
  try {
    return unmarshall(raw) as Item;
  } catch {
    return UNCHECKABLE;
  }
};

/**
 * Whether a conditional write refused by its condition was refused because of this very request: its
 * first attempt was applied but its answer was lost (a timeout, a 5xx), and the SDK's retry then
 * found the write's own effect. Only a retried request can be that; what it finds stored
 * (ReturnValuesOnConditionCheckFailure ALL_OLD) must then be what it wrote: a Put's whole item, an
 * Update's `SET path = :value` values and `REMOVE`d paths (or what `ownWrite` accepts), a Delete's
 * absence. A concurrent request that wrote exactly the same in that moment cannot be told apart;
 * for a Put or SET the values (timestamps, ids) make that unlikely, for a Delete or REMOVE it means
 * both requests succeed (and a first attempt that failed unapplied, for an item already gone, looks
 * the same: the actions check that what they delete exists before, so that takes a lost race and a
 * failed attempt at once).
 */
const isOwnEarlierWrite = (
  command: PutCommand | UpdateCommand | DeleteCommand,
  error: unknown,
  ownWrite: ((stored: Item | undefined) => boolean) | undefined,
): boolean => {
  if (((error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1) < 2) return false;
  const stored = storedItemOf(error);
  if (stored === UNCHECKABLE) return false;
  if (ownWrite) return ownWrite(stored);
  if (command instanceof PutCommand) return sameValue(stored, command.input.Item);
  if (command instanceof UpdateCommand) return showsUpdate(command.input, stored);
  return stored === undefined;
};

/** A conditional write's outcome: written, or refused by its condition, with the item it found (if any). */
export type ConditionalOutcome = { written: true } | { written: false; stored: Item | undefined };

/**
 * Sends a conditional write; other errors than its condition's refusal are thrown. Safe to retry: a
 * refusal that only the request's own earlier attempt caused (applied, but its answer lost, then
 * retried by the SDK) is `written` (isOwnEarlierWrite); `ownWrite` tells an own write from the
 * stored item where the default check cannot (an Update with ADD or functions).
 */
export const writeConditional = async (
  command: PutCommand | UpdateCommand | DeleteCommand,
  opts: { ownWrite?: (stored: Item | undefined) => boolean } = {},
): Promise<ConditionalOutcome> => {
  command.input.ReturnValuesOnConditionCheckFailure ??= 'ALL_OLD';
  try {
    // send() is overloaded per command class: narrow the union so each call picks its overload.
    if (command instanceof PutCommand) await documentClient().send(command);
    else if (command instanceof UpdateCommand) await documentClient().send(command);
    else await documentClient().send(command);
    return { written: true };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (isOwnEarlierWrite(command, error, opts.ownWrite)) return { written: true };
    const stored = storedItemOf(error);
    return { written: false, stored: stored === UNCHECKABLE ? {} : stored };
  }
};

/** writeConditional's answer as a boolean: false when its condition refused it (a lost race). */
export const sendConditional = async (
  command: PutCommand | UpdateCommand | DeleteCommand,
  opts: { ownWrite?: (stored: Item | undefined) => boolean } = {},
): Promise<boolean> => (await writeConditional(command, opts)).written;

/** Deletes the main table's item at `key` only while its `attribute` still holds `value` (a claim, a batch, a summary nobody changed since). */
export const deleteIfStill = async (key: Key, attribute: string, value: string | number): Promise<void> => {
  await sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: key,
      ConditionExpression: '#attr = :value',
      ExpressionAttributeNames: { '#attr': attribute },
      ExpressionAttributeValues: { ':value': value },
    }),
  );
};

/**
 * Puts a new item under a key nobody else writes (a fresh id, a random queue id); the retry of a
 * put whose answer was lost finds its own item and succeeds. A key already taken is a bug: thrown.
 */
export const putNewItem = async (table: 'main' | 'events', item: Item): Promise<void> => {
  if (
    !(await sendConditional(new PutCommand({ TableName: tableName(table), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })))
  )
    throw new Error(`an item ${String(item.pk)} ${String(item.sk)} already exists`);
};

/** DynamoDB's limit of items in one TransactWriteItems call. */
export const MAX_TRANSACTION_ITEMS = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * How a refused transaction lost: `condition` when only conditions failed (the state it was built
 * on changed: re-read and decide again), `conflict` when another transaction was writing one of
 * its items at that moment (retry). `reasons[i]` is item i's cancellation code ('None' if it passed).
 */
export type TransactionLoss = { lost: 'condition' | 'conflict'; reasons: string[] };

const LOSING_REASONS = new Set(['None', 'ConditionalCheckFailed', 'TransactionConflict']);

/**
 * Sends a transaction: undefined when it was written, a TransactionLoss when a condition or a
 * concurrent transaction refused it. Anything else (throttling, a validation error) is thrown,
 * because it is not a lost race and must not be retried as one. Safe to retry: it carries a
 * ClientRequestToken, so DynamoDB answers the SDK's retry of a transaction it already applied
 * (its answer lost) with success, without applying it again or evaluating its conditions.
 */
export const sendTransaction = async (items: TransactItem[]): Promise<TransactionLoss | undefined> => {
  if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`at most ${MAX_TRANSACTION_ITEMS} items per transaction, got ${items.length}`);
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() }));
    return undefined;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TransactionConflictException') return { lost: 'conflict', reasons: items.map(() => 'None') };
    if (name !== 'TransactionCanceledException') throw error;
    const reasons = ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
    if (reasons.length === 0 || !reasons.every((code) => LOSING_REASONS.has(code))) throw error;
    if (reasons.includes('TransactionConflict')) return { lost: 'conflict', reasons };
    if (reasons.includes('ConditionalCheckFailed')) return { lost: 'condition', reasons };
    throw error;
  }
};

/**
 * A transaction's step of a count item (`count` at `key`) that bounds a set of items: +1 with
 * `max` is refused (ConditionalCheckFailed) while the count stands at `max` (a missing count is
 * none), so of concurrent creates at the bound only the free places are taken; -1 uncounts.
 */
export const countStep = (key: Key, step: 1 | -1, max?: number): TransactItem => ({
  Update: {
    TableName: tableName('main'),
    Key: key,
    UpdateExpression: 'ADD #c :step',
    ExpressionAttributeNames: { '#c': 'count' },
    ExpressionAttributeValues: { ':step': step, ...(max !== undefined ? { ':max': max } : {}) },
    ...(max !== undefined ? { ConditionExpression: 'attribute_not_exists(#c) OR #c < :max' } : {}),
  },
});

/** The parts of an UpdateItem that set each attribute of `changes`: `SET #n0 = :v0, …`. */
export const buildSetUpdate = (changes: Record<string, unknown>) => {
  const names = Object.keys(changes);
  return {
    UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
    ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, changes[n]])),
  };
};

/** Raises the numeric `value` attribute of an item (a counter, a sequence) to at least `value`. */
export const raiseAtLeast = async (key: Key, value: number): Promise<void> => {
  await sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: key,
      UpdateExpression: 'SET #v = :v',
      ConditionExpression: 'attribute_not_exists(#v) OR #v < :v',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':v': value },
    }),
  );
};

/** Seeding: raise an id counter so new ids never collide with seeded ones. */
export const raiseCounter = (entity: string, value: number): Promise<void> => raiseAtLeast(keys.counter(entity), value);

/** Removes the key attributes from a stored item, leaving the domain fields. */
export const stripKeys = <T extends Item>(item: T): Item => {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _f,
    gsi3sk: _g,
    gsi4pk: _h,
    gsi4sk: _i,
    expiresAt: _e,
    ...rest
  } = item;
  return rest;
};
