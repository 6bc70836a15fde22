import { handler as deleteEvents } from '../../../functions/events/delete';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { sendEvent } from '../../../lib/events/send';
import type { AlertWordsEvent } from '../../../lib/models/event';
import { handler as regenerate } from '../../../functions/users/regenerate-api-key';
import * as realmsStore from '../../../lib/store/realms';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../lib/store/client';
import { keys } from '../../../lib/store/keys';
import { authFor, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { watchDynamoCalls } from '../../helpers/dynamo-calls';

const IAGO = 'iago@zulip.com';
const REALM = 2;
const IAGO_ID = 11;

/** A real event shape (the OpenAPI check validates every event), tagged through its words. */
const tagged = (tag: string): AlertWordsEvent => ({ type: 'alert_words', alert_words: [tag] });
const tagOf = (event: Record<string, any>) => event.alert_words?.[0];

const poll = (email: string, params: Record<string, unknown>) => call(getEvents, { method: 'GET', path: '/events', as: email, params });

const registerQueue = async (email = IAGO, params: Record<string, unknown> = {}) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as: email, params: { fetch_event_types: [], ...params } }));

describe('POST /register (the queue)', () => {
  it('returns a UUID queue id, last_event_id -1, the timeout and the version fields under both names', async () => {
    const body = await registerQueue();
    expect(body.queue_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body).toMatchObject({
      last_event_id: -1,
      idle_queue_timeout_secs: 600,
      service_feature_level: 485,
      zulip_feature_level: 485,
      event_queue_longpoll_timeout_seconds: 30,
    });
    expect(body.zulip_version).toBe(body.service_version);
    expect(body.zulip_merge_base).toBe(body.service_merge_base);
  });

  it.each([
    ['600', 600],
    ['60', 60],
    ['604800', 604800],
    ['mobile', 43200],
  ])('accepts idle_queue_timeout=%s', async (value, expected) => {
    expect((await registerQueue(IAGO, { idle_queue_timeout: value })).idle_queue_timeout_secs).toBe(expected);
  });

  it.each(['59', '604801', '-1', 'soon', '1.5'])('refuses idle_queue_timeout=%s with a clear 400', async (value) => {
    expectError(
      await call(register, { method: 'POST', path: '/register', as: IAGO, params: { idle_queue_timeout: value } }),
      'Invalid idle_queue_timeout: must be a number of seconds from 60 to 604800, or "mobile"',
    );
  });

  it('accepts the older queue_lifespan_secs, 0 meaning the default', async () => {
    expect((await registerQueue(IAGO, { queue_lifespan_secs: 0 })).idle_queue_timeout_secs).toBe(600);
    expect((await registerQueue(IAGO, { queue_lifespan_secs: 3600 })).idle_queue_timeout_secs).toBe(3600);
  });

  it('refuses both names at once', async () => {
    expectError(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: IAGO,
        params: { queue_lifespan_secs: 600, idle_queue_timeout: '600' },
      }),
      "Can't decide between 'idle_queue_timeout' and 'queue_lifespan_secs' arguments",
      400,
      'REQUEST_CONFUSING_VAR',
    );
  });

  it('refuses an unsupported narrow operator or operand', async () => {
    const post = (narrow: unknown) => call(register, { method: 'POST', path: '/register', as: IAGO, params: { narrow } });
    expectError(await post([['search', 'x']]), 'Operator search not supported.');
    expectError(await post([['is', 'unread']]), 'Operand unread not supported.');
    expectSuccess(
      await post([
        ['stream', 'Verona'],
        ['is', 'dm'],
      ]),
    );
    expectSuccess(await post([{ operator: 'channel', operand: 'Verona' }]));
  });

  it('refuses all_public_streams to a guest', async () => {
    expectError(
      await call(register, { method: 'POST', path: '/register', as: 'polonius@zulip.com', params: { all_public_streams: true } }),
      'User not authorized for this query',
    );
    expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: IAGO, params: { all_public_streams: true, fetch_event_types: [] } }),
    );
  });

  it('accepts event_types=null as zulip-js sends it', async () => {
    expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: IAGO, params: { event_types: 'null', fetch_event_types: [] } }),
    );
  });
});

describe('GET /events', () => {
  it('delivers events with ids from 0, in order, and the same ones again until acknowledged', async () => {
    const q = await registerQueue();
    await sendEvent(REALM, tagged('1'), { users: [IAGO_ID] });
    await sendEvent(REALM, tagged('2'), 'realm');
    const first = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    expect(first.events).toEqual([
      { ...tagged('1'), id: 0 },
      { ...tagged('2'), id: 1 },
    ]);
    const again = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    expect(again.events).toEqual(first.events);
    const acked = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: 0, dont_block: true }));
    expect(acked.events).toEqual([{ ...tagged('2'), id: 1 }]);
  });

  it('filters by event_types', async () => {
    const q = await openQueue(IAGO, { eventTypes: ['alert_words'] });
    await sendEvent(REALM, { type: 'drafts', op: 'remove', draft_id: 1 }, 'realm');
    await sendEvent(REALM, tagged('wanted'), 'realm');
    expect(await q.drain()).toEqual([tagged('wanted')]);
  });

  it('does not deliver events of another organization or of another user', async () => {
    const q = await openQueue(IAGO);
    await sendEvent(3, tagged('x'), 'realm');
    await sendEvent(REALM, tagged('x'), { users: [10] });
    expect(await q.drain()).toEqual([]);
  });

  it('does not deliver events sent before the queue was registered', async () => {
    await sendEvent(REALM, tagged('before'), 'realm');
    const q = await openQueue(IAGO);
    await sendEvent(REALM, tagged('after'), 'realm');
    expect(await q.drain()).toEqual([tagged('after')]);
  });

  it('keeps a long-poll waiting until an event arrives, then returns that event at once', async () => {
    const q = await registerQueue();
    let answered = false;
    const pending = poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await sendEvent(REALM, tagged('x'), { users: [IAGO_ID] });
    const body = expectSuccess(await pending);
    // The event itself, not the heartbeat that ends a wait that ran to its bound.
    expect(body.events).toEqual([{ ...tagged('x'), id: 0 }]);
  });

  it('returns a heartbeat repeating the last acknowledged id when the wait ends with no event', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    try {
      const q = await registerQueue();
      const body = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 }));
      expect(body.events).toEqual([{ type: 'heartbeat', id: -1 }]);
      await sendEvent(REALM, tagged('x'), 'realm');
      const next = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 }));
      expect(next.events).toEqual([{ ...tagged('x'), id: 0 }]);
    } finally {
      delete process.env.EVENTS_LONGPOLL_SECONDS;
    }
  });

  it('delivers every event of 10 concurrent producers exactly once, in id order, to an acknowledging long-poller', async () => {
    const q = await registerQueue();
    const PRODUCERS = 10;
    const PER_PRODUCER = 50;
    let producing = true;
    const producers = Promise.all(
      Array.from({ length: PRODUCERS }, async (_, p) => {
        for (let i = 0; i < PER_PRODUCER; i += 1) {
          await sendEvent(REALM, tagged(`${p}:${i}`), p % 2 === 0 ? 'realm' : { users: [IAGO_ID] });
        }
      }),
    ).then(() => {
      producing = false;
    });
    const received: { id: number; producer: number; n: number }[] = [];
    let last = -1;
    while (producing || received.length < PRODUCERS * PER_PRODUCER) {
      const body = expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: last }));
      for (const event of body.events) {
        if (event.type === 'heartbeat') continue;
        const [producer, n] = String(tagOf(event)).split(':').map(Number);
        received.push({ id: event.id, producer, n });
      }
      if (body.events.length > 0) last = body.events[body.events.length - 1].id;
      if (!producing && received.length >= PRODUCERS * PER_PRODUCER) break;
    }
    await producers;
    const ids = received.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    const keys = received.map((e) => `${e.producer}:${e.n}`).sort();
    const expected = Array.from(
      { length: PRODUCERS * PER_PRODUCER },
      (_, k) => `${Math.floor(k / PER_PRODUCER)}:${k % PER_PRODUCER}`,
    ).sort();
    expect(keys).toEqual(expected);
    // Each producer's events arrive in the order it sent them.
    for (let p = 0; p < PRODUCERS; p += 1) {
      const ns = received.filter((e) => e.producer === p).map((e) => e.n);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
    }
  }, 120000);

  it('requires last_event_id', async () => {
    const q = await registerQueue();
    const result = await poll(IAGO, { queue_id: q.queue_id });
    expectError(result, "Missing 'last_event_id' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses to go back before what was pruned, and an id the queue never had', async () => {
    const q = await registerQueue();
    await sendEvent(REALM, tagged('x'), 'realm');
    await sendEvent(REALM, tagged('x'), 'realm');
    expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: 1, dont_block: true }));
    expectError(
      await poll(IAGO, { queue_id: q.queue_id, last_event_id: 0, dont_block: true }),
      'An event newer than 1 has already been pruned!',
    );
    expectError(await poll(IAGO, { queue_id: q.queue_id, last_event_id: 5, dont_block: true }), 'Event 5 was not in this queue');
    expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: 1, dont_block: true }));
  });

  it('answers BAD_EVENT_QUEUE_ID for an unknown queue', async () => {
    const result = await poll(IAGO, { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
    expectError(result, 'Bad event queue ID: no-such-queue', 400, 'BAD_EVENT_QUEUE_ID');
    expect(result.body.queue_id).toBe('no-such-queue');
  });

  it('does not let another user read, acknowledge or delete a queue', async () => {
    const q = await registerQueue();
    await sendEvent(REALM, tagged('x'), { users: [IAGO_ID] });
    const msg = `Bad event queue ID: ${q.queue_id}`;
    expectError(
      await poll('hamlet@zulip.com', { queue_id: q.queue_id, last_event_id: 0, dont_block: true }),
      msg,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
    expectError(await poll('king@lear.org', { queue_id: q.queue_id, last_event_id: -1, dont_block: true }), msg, 400, 'BAD_EVENT_QUEUE_ID');
    expectError(
      await call(deleteEvents, { method: 'DELETE', path: '/events', as: 'hamlet@zulip.com', params: { queue_id: q.queue_id } }),
      msg,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
    // The owner still has the queue and its unacknowledged event.
    expect(expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true })).events).toEqual([
      { ...tagged('x'), id: 0 },
    ]);
  });

  it('forgets a queue idle for longer than its timeout', async () => {
    freezeClock(Date.now());
    const q = await registerQueue(IAGO, { idle_queue_timeout: '60' });
    advanceClock(59_000);
    expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    // A dont_block poll does not refresh the idle clock.
    advanceClock(2_000);
    expectError(
      await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }),
      `Bad event queue ID: ${q.queue_id}`,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
    expectError(
      await call(deleteEvents, { method: 'DELETE', path: '/events', as: IAGO, params: { queue_id: q.queue_id } }),
      `Bad event queue ID: ${q.queue_id}`,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
  });

  it('keeps a queue alive while it is long-polled', async () => {
    process.env.EVENTS_LONGPOLL_SECONDS = '1';
    try {
      const q = await registerQueue(IAGO, { idle_queue_timeout: '60' });
      advanceClock(50_000);
      expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 }));
      advanceClock(50_000);
      expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    } finally {
      delete process.env.EVENTS_LONGPOLL_SECONDS;
    }
  });

  it('does not bring an expired queue back when events are sent to its user', async () => {
    const q = await registerQueue(IAGO, { idle_queue_timeout: '60' });
    advanceClock(61_000);
    await sendEvent(REALM, tagged('x'), { users: [IAGO_ID] });
    expectError(
      await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }),
      `Bad event queue ID: ${q.queue_id}`,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
  });
});

describe('DELETE /events', () => {
  it('deletes the queue; a second delete and later polls get BAD_EVENT_QUEUE_ID', async () => {
    const q = await registerQueue();
    const del = () => call(deleteEvents, { method: 'DELETE', path: '/events', as: IAGO, params: { queue_id: q.queue_id } });
    expectSuccess(await del());
    expectError(await del(), `Bad event queue ID: ${q.queue_id}`, 400, 'BAD_EVENT_QUEUE_ID');
    expectError(
      await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }),
      `Bad event queue ID: ${q.queue_id}`,
      400,
      'BAD_EVENT_QUEUE_ID',
    );
  });
});

describe('event streams', () => {
  it('skips a number whose producer died between its two writes, once the grace period has passed', async () => {
    const streams = await import('../../../lib/store/event-streams');
    const { eventKeys } = await import('../../../lib/store/keys');
    const { nowMs } = await import('../../../lib/clock');
    const q = await openQueue(IAGO);
    const stream = eventKeys.userStream(IAGO_ID);
    const orphan = await streams.allocate(stream, nowMs());
    await sendEvent(REALM, tagged('after the gap'), { users: [IAGO_ID] });
    // Within the grace period the queue waits for the missing number.
    expect(await q.drain()).toEqual([]);
    advanceClock(6_000);
    expect(await q.drain()).toEqual([tagged('after the gap')]);
    // The late producer's write is refused; sendEvent would take a new number instead.
    expect(await streams.writeAt(stream, orphan, tagged('late'), nowMs(), nowMs())).toBe(false);
  });
});

describe('GET /events authenticated by its queue', () => {
  const OTHELLO = 'othello@zulip.com';

  /** The key lookups (gsi1 queries) a run makes. */
  const keyLookups = async <T>(run: () => Promise<T>): Promise<{ result: T; lookups: number }> => {
    let lookups = 0;
    const restore = watchDynamoCalls((command) => {
      if (command instanceof QueryCommand && command.input.IndexName === 'gsi1') lookups += 1;
    });
    try {
      return { result: await run(), lookups };
    } finally {
      restore();
    }
  };

  it('takes the credentials that registered the queue without looking the key up, and anything else through the key', async () => {
    const q = await registerQueue(OTHELLO);
    const fast = await keyLookups(() => poll(OTHELLO, { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    expect(expectSuccess(fast.result).events).toEqual([]);
    expect(fast.lookups).toBe(0);
    // A queue the credentials did not register goes through the key lookup.
    const upper = await authFor(OTHELLO);
    const other = await keyLookups(async () =>
      call(getEvents, { method: 'GET', path: '/events', authorization: upper, params: { queue_id: 'no-such-queue', last_event_id: -1 } }),
    );
    expectError(other.result, 'Bad event queue ID: no-such-queue', 400, 'BAD_EVENT_QUEUE_ID');
    expect(other.lookups).toBe(1);
  });

  it('ends the queues of a key that is replaced: the old key is refused, the new one told to register again', async () => {
    const q = await registerQueue(OTHELLO);
    const oldAuth = await authFor(OTHELLO);
    expectSuccess(await call(regenerate, { method: 'POST', path: '/users/me/api_key/regenerate', authorization: oldAuth }));
    const params = { queue_id: q.queue_id, last_event_id: -1, dont_block: true };
    expectError(
      await call(getEvents, { method: 'GET', path: '/events', authorization: oldAuth, params }),
      'Invalid API key',
      401,
      'UNAUTHORIZED',
    );
    expectError(await poll(OTHELLO, params), `Bad event queue ID: ${q.queue_id}`, 400, 'BAD_EVENT_QUEUE_ID');
    const again = await registerQueue(OTHELLO);
    expect(expectSuccess(await poll(OTHELLO, { ...params, queue_id: again.queue_id })).events).toEqual([]);
  });

  it('checks credentials before parameters, as every authenticated endpoint', async () => {
    const bad = `Basic ${Buffer.from(`${OTHELLO}:${'x'.repeat(32)}`).toString('base64')}`;
    expectError(
      await call(getEvents, { method: 'GET', path: '/events', authorization: bad, params: {} }),
      'Invalid API key',
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await call(getEvents, { method: 'GET', path: '/events', params: { queue_id: 'q', last_event_id: -1 } }),
      'Not logged in: API authentication or user session required',
      401,
      'UNAUTHORIZED',
    );
  });
});

describe('GET /events of a deactivated organization', () => {
  /** Another process's deactivation: the item written without this process's store. */
  const setDeactivatedElsewhere = (deactivated: boolean) =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: keys.realm(REALM),
        UpdateExpression: 'SET deactivated = :d',
        ExpressionAttributeValues: { ':d': deactivated },
      }),
    );

  afterEach(async () => {
    await setDeactivatedElsewhere(false);
    resetClock();
    realmsStore.forgetRecent();
    delete process.env.AUTH_CACHE_MS;
  });

  it('is refused at once when this process deactivated it', async () => {
    const q = await registerQueue(IAGO);
    const params = { queue_id: q.queue_id, last_event_id: -1, dont_block: true };
    expectSuccess(await poll(IAGO, params));
    expect(await realmsStore.setDeactivated(REALM, true)).toBe(true);
    expectError(await poll(IAGO, params), 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
  });

  it('is refused within AUTH_CACHE_MS when another process deactivated it, also for a queue that authenticates its polls', async () => {
    process.env.AUTH_CACHE_MS = '3000';
    realmsStore.forgetRecent();
    const q = await registerQueue(IAGO);
    const params = { queue_id: q.queue_id, last_event_id: -1, dont_block: true };
    freezeClock(Date.now());
    expectSuccess(await poll(IAGO, params));
    await setDeactivatedElsewhere(true);
    // Read 0 s ago by this process: the organization as read.
    expectSuccess(await poll(IAGO, params));
    advanceClock(3001);
    expectError(await poll(IAGO, params), 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
  });
});

describe('GET /events request lines (docs/operations.md, "Logs")', () => {
  /** The request lines logged while `run` runs, with request logging on and the given sample of idle polls. */
  const requestLines = async (sample: string, run: () => Promise<unknown>): Promise<Record<string, unknown>[]> => {
    const lines: string[] = [];
    const log = jest.spyOn(console, 'info').mockImplementation((...args) => void lines.push(args.join(' ')));
    const saved = { log: process.env.REQUEST_LOG, sample: process.env.REQUEST_LOG_QUIET_SAMPLE };
    Object.assign(process.env, { REQUEST_LOG: 'on', REQUEST_LOG_QUIET_SAMPLE: sample, EVENTS_LONGPOLL_SECONDS: '1' });
    try {
      await run();
    } finally {
      log.mockRestore();
      process.env.REQUEST_LOG = saved.log;
      if (saved.sample === undefined) delete process.env.REQUEST_LOG_QUIET_SAMPLE;
      else process.env.REQUEST_LOG_QUIET_SAMPLE = saved.sample;
      delete process.env.EVENTS_LONGPOLL_SECONDS;
    }
    return lines.map((line) => JSON.parse(line)).filter((line) => line.route !== undefined);
  };

  it('logs no line for an idle poll (only a heartbeat) outside the sample, one for a poll that delivers', async () => {
    const q = await registerQueue();
    const lines = await requestLines('0', async () => {
      expect(expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 })).events).toEqual([{ type: 'heartbeat', id: -1 }]);
      await sendEvent(REALM, tagged('logged'), 'realm');
      expect(expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 })).events).toEqual([{ ...tagged('logged'), id: 0 }]);
    });
    expect(lines).toEqual([expect.objectContaining({ route: 'GET /events', status: 200 })]);
  });

  it('logs every failed poll, whatever the sample', async () => {
    const lines = await requestLines('0', async () => {
      expectError(
        await poll(IAGO, { queue_id: 'no-such-queue', last_event_id: -1 }),
        'Bad event queue ID: no-such-queue',
        400,
        'BAD_EVENT_QUEUE_ID',
      );
    });
    expect(lines).toEqual([expect.objectContaining({ route: 'GET /events', status: 400 })]);
  });

  it('logs an idle poll that falls in the sample (here all of them)', async () => {
    const q = await registerQueue();
    const lines = await requestLines('1', async () => {
      expectSuccess(await poll(IAGO, { queue_id: q.queue_id, last_event_id: -1 }));
    });
    expect(lines).toEqual([expect.objectContaining({ route: 'GET /events', status: 200 })]);
  });
});
