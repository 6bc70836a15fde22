import { handler } from '../../../functions/presence/update';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { advanceSeconds, frozenPresenceTests } from './presence-fixture';

const post = (as: string, params: Record<string, unknown>) => call(handler, { method: 'POST', path: '/users/me/presence', as, params });
const report = async (as: string, status: 'active' | 'idle') => {
  expectSuccess(await post(as, { status, ping_only: true }));
};

let T: number;
frozenPresenceTests((now) => (T = now));

const legacyEvent = (userId: number, email: string, status: 'active' | 'idle', timestamp: number, serverTimestamp = T) => ({
  type: 'presence',
  user_id: userId,
  email,
  server_timestamp: serverTimestamp,
  presence: { website: { client: 'website', status, timestamp, pushable: false } },
});

describe('presence events', () => {
  it('sends a user coming online to every queue of the organization, shaped for each queue', async () => {
    const iago = await openQueue('iago@zulip.com', { eventTypes: ['presence'] });
    const own = await openQueue('hamlet@zulip.com');
    const slim = await openQueue('cordelia@zulip.com', { params: { slim_presence: true } });
    const modern = await openQueue('desdemona@zulip.com', { capabilities: { simplified_presence_events: true } });
    const bot = await openQueue('default-bot@zulip.com');
    const otherOrganization = await openQueue('king@lear.org');
    // hamlet was last active 4000 s ago.
    await report('hamlet@zulip.com', 'active');
    const expected = legacyEvent(10, 'hamlet@zulip.com', 'active', T);
    expect(await iago.drain()).toEqual([expected]);
    expect(await own.drain()).toEqual([expected]);
    expect(await bot.drain()).toEqual([expected]);
    const { email: _email, ...withoutEmail } = expected;
    expect(await slim.drain()).toEqual([withoutEmail]);
    expect(await modern.drain()).toEqual([{ type: 'presence', presences: { '10': { active_timestamp: T, idle_timestamp: T } } }]);
    expect(await otherOrganization.drain()).toEqual([]);
  });

  it("sends a user's first report even when idle, dated from date_joined", async () => {
    const iago = await openQueue('iago@zulip.com');
    await report('AARON@zulip.com', 'idle');
    expect(await iago.drain()).toEqual([legacyEvent(6, 'AARON@zulip.com', 'idle', T)]);
  });

  it('sends nothing for reports that do not come online', async () => {
    const iago = await openQueue('iago@zulip.com');
    advanceSeconds(60);
    await report('iago@zulip.com', 'active'); // active 90 s ago: rewritten, still online
    await report('hamlet@zulip.com', 'idle'); // rewritten, but idle
    await report('cordelia@zulip.com', 'idle'); // long gone, still idle
    expect(await iago.drain()).toEqual([]);
  });

  it('counts a user as coming online after more than 130 s without activity', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    advanceSeconds(100); // iago: active 130 s ago
    await report('iago@zulip.com', 'active');
    expect(await queue.drain()).toEqual([]);
    advanceSeconds(131);
    await report('iago@zulip.com', 'active');
    expect(await queue.drain()).toEqual([legacyEvent(11, 'iago@zulip.com', 'active', T + 231, T + 231)]);
  });

  it('sends nothing in an organization with presence disabled', async () => {
    const king = await openQueue('king@lear.org');
    await report('edgar@lear.org', 'active');
    expect(await king.drain()).toEqual([]);
  });

  it('sends nothing in an organization of more active users than PRESENCE_EVENT_USER_LIMIT (upstream: 100)', async () => {
    const iago = await openQueue('iago@zulip.com');
    process.env.PRESENCE_EVENT_USER_LIMIT = '5';
    try {
      await report('hamlet@zulip.com', 'active');
    } finally {
      delete process.env.PRESENCE_EVENT_USER_LIMIT;
    }
    expect(await iago.drain()).toEqual([]);
    // At or under the limit, the event is sent as before.
    await report('AARON@zulip.com', 'idle');
    expect(await iago.drain()).toEqual([legacyEvent(6, 'AARON@zulip.com', 'idle', T)]);
  });

  it('sends nothing for a user who shares no presence', async () => {
    const iago = await openQueue('iago@zulip.com');
    await report('prospero@zulip.com', 'active');
    expect(await iago.drain()).toEqual([]);
  });

  it('sends nothing to a queue that does not want presence events', async () => {
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['message'] });
    await report('hamlet@zulip.com', 'active');
    expect(await queue.drain()).toEqual([]);
  });

  it('sends one event when the same user comes online from many clients at once', async () => {
    const iago = await openQueue('iago@zulip.com');
    await Promise.all(Array.from({ length: 6 }, () => report('hamlet@zulip.com', 'active')));
    expect(await iago.drain()).toEqual([legacyEvent(10, 'hamlet@zulip.com', 'active', T)]);
  });
});
