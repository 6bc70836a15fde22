import { handler } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';
import { frozenPresenceTests, legacy, modern } from './presence-fixture';

const register = (as: string, params: Record<string, unknown>) => call(handler, { method: 'POST', path: '/register', as, params });

let T: number;
frozenPresenceTests((now) => (T = now));

const presenceKeys = (body: Record<string, unknown>) => ({
  presences: body.presences,
  presence_last_update_id: body.presence_last_update_id,
  server_timestamp: body.server_timestamp,
});

describe('POST /register: presence', () => {
  it('returns the legacy presence of the last 14 days, presence_last_update_id and server_timestamp', async () => {
    const body = expectSuccess(await register('hamlet@zulip.com', { fetch_event_types: ['presence'] }));
    expect(presenceKeys(body)).toEqual({
      presences: {
        'iago@zulip.com': legacy('active', T - 30),
        'hamlet@zulip.com': legacy('idle', T - 100),
        'cordelia@zulip.com': legacy('active', T - 172800),
      },
      presence_last_update_id: 6,
      server_timestamp: T,
    });
  });

  it('returns the modern format with slim_presence', async () => {
    const body = expectSuccess(await register('hamlet@zulip.com', { fetch_event_types: ['presence'], slim_presence: true }));
    expect(body.presences).toEqual({ '11': modern(T - 30, T - 30), '10': modern(T - 4000, T - 100), '8': modern(T - 172800, T - 172800) });
  });

  it('returns the modern format to a client declaring simplified_presence_events', async () => {
    const body = expectSuccess(
      await register('hamlet@zulip.com', {
        fetch_event_types: ['presence'],
        client_capabilities: { notification_settings_null: false, simplified_presence_events: true },
      }),
    );
    expect(Object.keys(body.presences).sort()).toEqual(['10', '11', '8']);
  });

  it.each([
    [21, ['cordelia@zulip.com', 'hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com'], 6],
    [1, ['hamlet@zulip.com', 'iago@zulip.com'], 6],
    [0, [], -1],
  ])('honours presence_history_limit_days %i', async (days, emails, lastUpdateId) => {
    const body = expectSuccess(await register('hamlet@zulip.com', { fetch_event_types: ['presence'], presence_history_limit_days: days }));
    expect(Object.keys(body.presences).sort()).toEqual(emails);
    expect(body.presence_last_update_id).toBe(lastUpdateId);
  });

  it('returns no presence and -1 in an organization with presence disabled', async () => {
    const body = expectSuccess(await register('king@lear.org', { fetch_event_types: ['presence'] }));
    expect(presenceKeys(body)).toEqual({ presences: {}, presence_last_update_id: -1, server_timestamp: T });
  });

  it('gives a spectator no presence and no presence_last_update_id', async () => {
    const body = expectSuccess(
      await call(handler, { method: 'POST', path: '/register', params: { fetch_event_types: ['presence'], client_gravatar: false } }),
    );
    expect(body.presences).toEqual({});
    expect(body.server_timestamp).toBe(T);
    expect(body).not.toHaveProperty('presence_last_update_id');
  });

  it('sends the presence ping interval and offline threshold with the realm section, as upstream', async () => {
    const realm = expectSuccess(await register('hamlet@zulip.com', { fetch_event_types: ['realm'] }));
    expect(realm.server_presence_ping_interval_seconds).toBe(60);
    expect(realm.server_presence_offline_threshold_seconds).toBe(200);
    expect(realm).not.toHaveProperty('presences');
    const presence = expectSuccess(await register('hamlet@zulip.com', { fetch_event_types: ['presence'] }));
    expect(presence).not.toHaveProperty('server_presence_ping_interval_seconds');
  });

  it('returns every presence key when no event types are given', async () => {
    const body = expectSuccess(await register('hamlet@zulip.com', {}));
    expect(body).toMatchObject({
      presence_last_update_id: 6,
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 200,
    });
    expect(Object.keys(body.presences).sort()).toEqual(['cordelia@zulip.com', 'hamlet@zulip.com', 'iago@zulip.com']);
  });
});
