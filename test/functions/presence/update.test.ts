import { handler } from '../../../functions/presence/update';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import {
  LEAR,
  SEEDED_SEQUENCE,
  U,
  ZULIP,
  advanceSeconds,
  allRows,
  frozenPresenceTests,
  legacy,
  modern,
  putRow,
  row,
  sequence,
} from './presence-fixture';

const post = (as: string, params: Record<string, unknown>) => call(handler, { method: 'POST', path: '/users/me/presence', as, params });

let T: number;
frozenPresenceTests((now) => (T = now));

// Seeded rows at T: iago active 30 s ago (id 6), hamlet active 4000 s ago and connected 100 s ago
// (id 5), cordelia 2 days ago (id 4), othello 20 days ago (id 3), the bot (id 2) and the
// deactivated former employee (id 1) 10 s ago; the sequence stands at 6.
const seededLegacy = () => ({
  'iago@zulip.com': legacy('active', T - 30),
  'hamlet@zulip.com': legacy('idle', T - 100),
  'cordelia@zulip.com': legacy('active', T - 172800),
});

describe('POST /users/me/presence: reading', () => {
  it('returns the legacy format keyed by email, with server_timestamp and presence_last_update_id', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle' }));
    expect(body).toEqual({ result: 'success', msg: '', presences: seededLegacy(), server_timestamp: T, presence_last_update_id: 6 });
  });

  it('returns the modern format keyed by user id with slim_presence', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', slim_presence: true }));
    expect(body.presences).toEqual({
      '11': modern(T - 30, T - 30),
      '10': modern(T - 4000, T - 100),
      '8': modern(T - 172800, T - 172800),
    });
    expect(body.presence_last_update_id).toBe(6);
  });

  it('returns the modern format whenever last_update_id is passed, even -1 with slim_presence false', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: -1, slim_presence: false }));
    expect(Object.keys(body.presences).sort()).toEqual(['10', '11', '8']);
    expect(body.presences['11']).toEqual(modern(T - 30, T - 30));
    expect(body.presence_last_update_id).toBe(6);
  });

  it('leaves out rows older than 14 days, bots and deactivated users', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: -1 }));
    expect(body.presences).not.toHaveProperty(String(U.othello));
    expect(body.presences).not.toHaveProperty(String(U.defaultBot));
    expect(body.presences).not.toHaveProperty(String(U.former));
  });

  it('returns only rows changed after last_update_id, ignoring the time window', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 2, history_limit_days: 1 }));
    expect(body.presences).toEqual({
      '12': modern(T - 1728000, T - 1728000),
      '8': modern(T - 172800, T - 172800),
      '10': modern(T - 4000, T - 100),
      '11': modern(T - 30, T - 30),
    });
    expect(body.presence_last_update_id).toBe(6);
  });

  it('returns nothing and echoes last_update_id when nothing changed since', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 6 }));
    expect(body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: T, presence_last_update_id: 6 });
  });

  it("returns another user's new report, and only it, with the next update id", async () => {
    advanceSeconds(60);
    expectSuccess(await post('hamlet@zulip.com', { status: 'active', ping_only: true }));
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 6 }));
    // iago's own report at T+60 was also due (connected 90 s ago), so it comes after hamlet's.
    expect(body.presences).toEqual({ '10': modern(T + 60, T + 60), '11': modern(T - 30, T + 60) });
    expect(body.presence_last_update_id).toBe(8);
  });

  it('applies the time window to last_update_id 0', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 0 }));
    expect(Object.keys(body.presences).sort()).toEqual(['10', '11', '8']);
  });

  it.each([
    [21, ['10', '11', '12', '8']],
    [3, ['10', '11', '8']],
    [1, ['10', '11']],
  ])('limits the full fetch to history_limit_days %i', async (days, ids) => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: -1, history_limit_days: days }));
    expect(Object.keys(body.presences).sort()).toEqual(ids);
  });

  it('returns no data and -1 for history_limit_days 0', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', history_limit_days: 0 }));
    expect(body.presences).toEqual({});
    expect(body.presence_last_update_id).toBe(-1);
  });

  it('echoes last_update_id with history_limit_days 0', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 4, history_limit_days: 0 }));
    expect(body.presences).toEqual({});
    expect(body.presence_last_update_id).toBe(4);
  });

  it('returns -1 when no data is returned and no last_update_id was passed', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', history_limit_days: -1 }));
    expect(body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: T, presence_last_update_id: -1 });
  });

  it("shows a timestamp that was never set as the user's date_joined", async () => {
    // Aaron (joined 1700000600) reports idle for the first time: never active.
    expectSuccess(await post('AARON@zulip.com', { status: 'idle', ping_only: true }));
    const body = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 6 }));
    expect(body.presences).toEqual({ '6': modern(1700000600, T) });
    const legacyBody = expectSuccess(await post('iago@zulip.com', { status: 'idle' }));
    expect(legacyBody.presences['AARON@zulip.com']).toEqual(legacy('idle', T));
  });

  it('leaves rows never connected out of the full fetch but returns them incrementally, dated date_joined', async () => {
    await putRow({
      realmId: ZULIP,
      userId: U.zoe,
      lastActiveTime: null,
      lastConnectedTime: null,
      lastUpdateId: 7,
      email: 'ZOE@zulip.com',
      isBot: false,
      isActive: true,
      dateJoined: 1700000700,
    });
    const full = expectSuccess(await post('iago@zulip.com', { status: 'idle' }));
    expect(full.presences).toEqual(seededLegacy());
    const incremental = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 6 }));
    expect(incremental.presences).toEqual({ '7': modern(1700000700, 1700000700) });
    expect(incremental.presence_last_update_id).toBe(7);
  });

  it('reports legacy "active" when the activity is at most 70 s older than the connection, else "idle" at the connection', async () => {
    advanceSeconds(3600);
    expectSuccess(await post('cordelia@zulip.com', { status: 'active', ping_only: true }));
    advanceSeconds(70);
    expectSuccess(await post('cordelia@zulip.com', { status: 'idle', ping_only: true }));
    let body = expectSuccess(await post('iago@zulip.com', { status: 'idle' }));
    expect(body.presences['cordelia@zulip.com']).toEqual(legacy('active', T + 3600));
    advanceSeconds(56);
    expectSuccess(await post('cordelia@zulip.com', { status: 'idle', ping_only: true }));
    body = expectSuccess(await post('iago@zulip.com', { status: 'idle' }));
    expect(body.presences['cordelia@zulip.com']).toEqual(legacy('idle', T + 3600 + 70 + 56));
  });

  it("never shows another organization's rows", async () => {
    const lear = (await realmsStore.get(LEAR))!;
    await realmsStore.put({ ...lear, presenceDisabled: false });
    try {
      const body = expectSuccess(await post('king@lear.org', { status: 'active', last_update_id: -1 }));
      expect(body.presences).toEqual({ '20': modern(T, T) });
      expect(body.presence_last_update_id).toBe(1);
      const zulip = expectSuccess(await post('iago@zulip.com', { status: 'idle', last_update_id: 6 }));
      expect(zulip.presences).toEqual({});
    } finally {
      await realmsStore.put(lear);
    }
  });

  it('returns no data and -1 in an organization with presence disabled, but records the report', async () => {
    const body = expectSuccess(await post('king@lear.org', { status: 'active', last_update_id: 5 }));
    expect(body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: T, presence_last_update_id: -1 });
    expect(await row(U.king, LEAR)).toMatchObject({ lastActiveTime: T, lastConnectedTime: T, lastUpdateId: 1 });
  });

  it('answers only the envelope with ping_only', async () => {
    advanceSeconds(60);
    const result = await post('iago@zulip.com', { status: 'active', ping_only: true });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(await row(U.iago)).toMatchObject({ lastActiveTime: T + 60, lastConnectedTime: T + 60, lastUpdateId: 7 });
  });

  it('accepts new_user_input', async () => {
    const result = await post('iago@zulip.com', { status: 'active', ping_only: true, new_user_input: true });
    expect(result.body).toEqual({ result: 'success', msg: '' });
  });
});

describe('POST /users/me/presence: recording', () => {
  it('creates a first active report with both times now, under the next update id', async () => {
    expectSuccess(await post('ZOE@zulip.com', { status: 'active', ping_only: true }));
    expect(await row(U.zoe)).toEqual({
      realmId: ZULIP,
      userId: U.zoe,
      lastActiveTime: T,
      lastConnectedTime: T,
      lastUpdateId: 7,
      email: 'ZOE@zulip.com',
      isBot: false,
      isActive: true,
      dateJoined: 1700000700,
    });
    expect(await sequence()).toBe(7);
  });

  it('creates a first idle report with no activity time', async () => {
    expectSuccess(await post('ZOE@zulip.com', { status: 'idle', ping_only: true }));
    expect(await row(U.zoe)).toMatchObject({ lastActiveTime: null, lastConnectedTime: T, lastUpdateId: 7 });
  });

  it('rewrites nothing within 55 s of the last rewrite', async () => {
    const before = await allRows();
    advanceSeconds(25); // iago's times are now 55 s old
    const body = expectSuccess(await post('iago@zulip.com', { status: 'active', last_update_id: 6 }));
    expect(body.presences).toEqual({});
    expect(await allRows()).toEqual(before);
    expect(await sequence()).toBe(SEEDED_SEQUENCE);
  });

  it('rewrites the connection time after 55 s, leaving the activity time of an idle report', async () => {
    advanceSeconds(26);
    expectSuccess(await post('iago@zulip.com', { status: 'idle', ping_only: true }));
    expect(await row(U.iago)).toMatchObject({ lastActiveTime: T - 30, lastConnectedTime: T + 26, lastUpdateId: 7 });
  });

  it('rewrites the activity time of an active report and moves the connection time with it', async () => {
    // hamlet: connected 100 s ago, active 4000 s ago.
    advanceSeconds(-50); // connected 50 s ago: the connection alone would not be rewritten
    expectSuccess(await post('hamlet@zulip.com', { status: 'active', ping_only: true }));
    expect(await row(U.hamlet)).toMatchObject({ lastActiveTime: T - 50, lastConnectedTime: T - 50, lastUpdateId: 7 });
  });

  it('copies the current user fields onto the row it writes', async () => {
    await putRow({ ...(await row(U.hamlet))!, email: 'old@zulip.com', dateJoined: 1 });
    advanceSeconds(60);
    expectSuccess(await post('hamlet@zulip.com', { status: 'idle', ping_only: true }));
    expect(await row(U.hamlet)).toMatchObject({ email: 'hamlet@zulip.com', dateJoined: 1700001000, isActive: true, isBot: false });
  });

  it('writes nothing for a user who shares no presence, but still returns the others', async () => {
    const before = await allRows();
    const body = expectSuccess(await post('prospero@zulip.com', { status: 'active' }));
    expect(body.presences).toEqual(seededLegacy());
    expect(await allRows()).toEqual(before);
    expect(await sequence()).toBe(SEEDED_SEQUENCE);
  });

  it('hands out every update id once under concurrent reports from many users', async () => {
    const emails = [
      'AARON@zulip.com',
      'ZOE@zulip.com',
      'cordelia@zulip.com',
      'desdemona@zulip.com',
      'hamlet@zulip.com',
      'iago@zulip.com',
      'othello@zulip.com',
      'polonius@zulip.com',
      'shiva@zulip.com',
    ];
    advanceSeconds(120); // every one of them is due a rewrite
    const results = await Promise.all(
      emails.flatMap((email) => [post(email, { status: 'active', ping_only: true }), post(email, { status: 'active', ping_only: true })]),
    );
    results.forEach((r) => expectSuccess(r));
    const rows = Object.values(await allRows()).filter((p) => p.lastConnectedTime === T + 120);
    expect(rows).toHaveLength(emails.length);
    const ids = rows.map((p) => p.lastUpdateId).sort((a, b) => a - b);
    // One write per user (the second report of each pair finds the row fresh), ids 7…15 each once.
    expect(ids).toEqual(emails.map((_, i) => SEEDED_SEQUENCE + 1 + i));
    expect(await sequence()).toBe(SEEDED_SEQUENCE + emails.length);
  });

  it('writes one row once when the same user reports many times at once', async () => {
    advanceSeconds(120);
    const results = await Promise.all(Array.from({ length: 8 }, () => post('hamlet@zulip.com', { status: 'active', ping_only: true })));
    results.forEach((r) => expectSuccess(r));
    expect(await row(U.hamlet)).toMatchObject({ lastActiveTime: T + 120, lastConnectedTime: T + 120, lastUpdateId: 7 });
    expect(await sequence()).toBe(7);
  });
});

describe('POST /users/me/presence: errors', () => {
  it('refuses bots and writes nothing', async () => {
    const before = await allRows();
    expectError(await post('default-bot@zulip.com', { status: 'active' }), 'This endpoint does not accept bot requests.');
    expectError(await post('default-bot@zulip.com', {}), 'This endpoint does not accept bot requests.');
    expect(await allRows()).toEqual(before);
    expect(await sequence()).toBe(SEEDED_SEQUENCE);
  });

  it('refuses an unknown status and writes nothing', async () => {
    const before = await allRows();
    expectError(await post('hamlet@zulip.com', { status: 'foo' }), 'Invalid status: foo');
    expect(await allRows()).toEqual(before);
  });

  it('requires status', async () => {
    const before = await allRows();
    const result = await post('hamlet@zulip.com', { ping_only: true });
    expectError(result, "Missing 'status' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expect(result.body.var_name).toBe('status');
    expect(await allRows()).toEqual(before);
  });

  it.each([
    [{ ping_only: 'yes' }, 'ping_only is not valid JSON'],
    [{ ping_only: 1 }, 'ping_only is not a boolean'],
    [{ slim_presence: '"true"' }, 'slim_presence is not a boolean'],
    [{ last_update_id: 'abc' }, 'last_update_id is not valid JSON'],
    [{ last_update_id: true }, 'last_update_id is not an integer'],
    [{ history_limit_days: 1.5 }, 'history_limit_days is not an integer'],
    [{ new_user_input: 'null1' }, 'new_user_input is not valid JSON'],
  ])('refuses %j with "%s" and writes nothing', async (params, msg) => {
    const before = await allRows();
    advanceSeconds(120);
    expectError(await post('hamlet@zulip.com', { status: 'active', ...params }), msg);
    expect(await allRows()).toEqual(before);
  });
});
