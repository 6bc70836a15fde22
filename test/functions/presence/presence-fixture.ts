// Presence tests start every case from the development data set's presence rows, laid out
// relative to a frozen clock, so timestamps and update ids can be asserted exactly.
import fixture from '../../../seed/dev-realm.json';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../lib/store/client';
import { batchDelete, batchPut, queryPrefix } from '../../../lib/store/common';
import { entityKeys } from '../../../lib/store/keys';
import * as presenceStore from '../../../lib/store/presence';
import * as usersStore from '../../../lib/store/users';
import type { Presence } from '../../../lib/models/presence';
import { presenceItem } from '../../../scripts/seed';

export const ZULIP = 2;
export const LEAR = 3;
/** The seeded organization's sequence after seeding. */
export const SEEDED_SEQUENCE = 6;

export const U = {
  aaron: 6,
  zoe: 7,
  cordelia: 8,
  desdemona: 9,
  hamlet: 10,
  iago: 11,
  othello: 12,
  polonius: 13,
  prospero: 14,
  shiva: 15,
  defaultBot: 16,
  webhookBot: 17,
  former: 18,
  king: 20,
  edgar: 21,
} as const;

/** Freezes the service clock (Date only; timers keep running) at a whole second; returns it in seconds. */
export const freezeClock = (): number => {
  const nowMs = Math.floor(Date.now() / 1000) * 1000;
  jest.useFakeTimers({
    now: nowMs,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return nowMs / 1000;
};

/** Moves the frozen clock forward. */
export const advanceSeconds = (seconds: number): void => {
  jest.setSystemTime(Date.now() + seconds * 1000);
};

const presenceItemsOf = async (realmId: number) =>
  queryPrefix('main', entityKeys.presence(realmId, 0).pk, 'PRESENCE', { consistent: true, max: 1000 });

/** Puts the seeded presence rows back, relative to `now`, with the zulip sequence at 6 and none elsewhere. */
export const resetPresence = async (now: number): Promise<void> => {
  for (const realmId of [ZULIP, LEAR]) {
    const existing = await presenceItemsOf(realmId);
    await batchDelete(
      'main',
      existing.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    );
  }
  const items = [];
  for (const p of fixture.presence) {
    const user = await usersStore.get(ZULIP, p.user_id);
    if (!user) throw new Error(`seeded user ${p.user_id} is missing`);
    items.push(presenceItem(user, now - p.active_ago_s, now - p.connected_ago_s, p.last_update_id));
  }
  await batchPut('main', items);
  await setSequence(ZULIP, SEEDED_SEQUENCE);
};

export const setSequence = async (realmId: number, value: number): Promise<void> => {
  await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: { ...entityKeys.presenceSequence(realmId), value } }));
};

/** Stores a row as given (for states the API cannot produce, such as never-connected rows). */
export const putRow = async (row: Presence): Promise<void> => {
  await batchPut('main', [presenceStore.buildPresenceItem(row)]);
};

export const row = (userId: number, realmId: number = ZULIP): Promise<Presence | undefined> => presenceStore.get(realmId, userId);
export const sequence = (realmId: number = ZULIP): Promise<number> => presenceStore.getSequence(realmId);

/** Every presence row of an organization, keyed by user id (to assert that nothing changed). */
export const allRows = async (realmId: number = ZULIP): Promise<Record<number, Presence>> =>
  Object.fromEntries(
    (await presenceItemsOf(realmId))
      .filter((item) => item.sk !== entityKeys.presenceSequence(realmId).sk)
      .map((item) => {
        const p = presenceStore.toPresence(item);
        return [p.userId, p];
      }),
  );

export const legacy = (status: 'active' | 'idle', timestamp: number) => ({
  aggregated: { client: 'website', status, timestamp },
  website: { client: 'website', status, timestamp, pushable: false },
});

export const modern = (active: number, idle: number) => ({ active_timestamp: active, idle_timestamp: idle });

/**
 * Every test of the file runs at a frozen clock with the seeded presence rows restored;
 * `onStart` receives the frozen time (seconds).
 */
export const frozenPresenceTests = (onStart: (now: number) => void = () => undefined): void => {
  beforeEach(async () => {
    const now = freezeClock();
    onStart(now);
    await resetPresence(now);
  });
  afterEach(() => {
    jest.useRealTimers();
  });
};
