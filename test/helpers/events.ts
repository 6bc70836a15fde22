// Event tests: register a queue as a seeded user, then drain what it received through the real
// GET /events handler (so every event is checked like any response), acknowledging as it goes.
import { handler as getEvents } from '../../functions/events/get';
import { handler as register } from '../../functions/events/register';
import type { ClientCapabilities, QueueDescriptor } from '../../lib/models/event';
import { handler as updateSettings } from '../../functions/settings/update';
import { call, expectSuccess } from './api';

export type OpenQueueOptions = {
  eventTypes?: string[] | null;
  capabilities?: ClientCapabilities;
  /** Other register parameters, sent as they are. */
  params?: Record<string, unknown>;
};

export type TestQueue = {
  queueId: string;
  email: string;
  /** Events delivered since the last drain, without their ids (acknowledges the previous ones). */
  drain: () => Promise<Record<string, any>[]>;
  /** The same, keeping the ids. */
  drainWithIds: () => Promise<Record<string, any>[]>;
};

export const openQueue = async (email: string, opts: OpenQueueOptions = {}): Promise<TestQueue> => {
  const body = expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as: email,
      params: {
        ...(opts.eventTypes ? { event_types: opts.eventTypes } : {}),
        ...(opts.capabilities ? { client_capabilities: opts.capabilities } : {}),
        // Only the queue: no state sections, which keeps event tests fast.
        fetch_event_types: [],
        ...(opts.params ?? {}),
      },
    }),
  );
  const queueId = body.queue_id as string;
  let lastEventId = -1;
  const drainWithIds = async () => {
    const result = await call(getEvents, {
      method: 'GET',
      path: '/events',
      as: email,
      params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true },
    });
    const events = expectSuccess(result).events as Record<string, any>[];
    if (events.length > 0) lastEventId = events[events.length - 1].id;
    return events;
  };
  return {
    queueId,
    email,
    drainWithIds,
    drain: async () => (await drainWithIds()).map(({ id: _id, ...event }) => event),
  };
};

/** A queue descriptor for pure filter tests: Iago's queue with no filter, changed by `overrides`. */
export const queueDescriptor = (overrides: Partial<QueueDescriptor> = {}): QueueDescriptor => ({
  queueId: 'q',
  realmId: 2,
  userId: 11,
  ...PLAIN_QUEUE,
  ...overrides,
});

/** A queue's settings with no filter (registerQueue's argument): every event type, no narrow. */
export const PLAIN_QUEUE: Omit<QueueDescriptor, 'queueId' | 'realmId' | 'userId'> = {
  eventTypes: null,
  capabilities: {},
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: false,
  clientGravatar: true,
  slimPresence: false,
  timeoutSecs: 600,
};

/**
 * Stops a user's new topics from being followed automatically (upstream's default follows the
 * topics one starts), so a send adds no `user_topic` events to the sender's queues.
 */
export const neverFollowNewTopics = async (email: string): Promise<void> => {
  expectSuccess(
    await call(updateSettings, { method: 'PATCH', path: '/settings', as: email, params: { automatically_follow_topics_policy: 4 } }),
  );
};

/** The development organization's members by id, as the tests name them (the seeded `zulip` users 7 to 15). */
export const SEEDED_EMAILS: Readonly<Record<number, string>> = {
  7: 'ZOE@zulip.com',
  8: 'cordelia@zulip.com',
  9: 'desdemona@zulip.com',
  10: 'hamlet@zulip.com',
  11: 'iago@zulip.com',
  12: 'othello@zulip.com',
  13: 'polonius@zulip.com',
  14: 'prospero@zulip.com',
  15: 'shiva@zulip.com',
};

/** One queue for each of these seeded users (SEEDED_EMAILS), by user id. */
export const openQueuesOf = async (ids: number[], opts: OpenQueueOptions = {}): Promise<Map<number, TestQueue>> =>
  new Map(await Promise.all(ids.map(async (id) => [id, await openQueue(SEEDED_EMAILS[id], opts)] as const)));

/** What each queue received since its last drain, by user id. */
export const drainQueues = async (queues: Map<number, TestQueue>): Promise<Record<number, Record<string, any>[]>> =>
  Object.fromEntries(await Promise.all([...queues].map(async ([id, q]) => [id, await q.drain()] as const)));
