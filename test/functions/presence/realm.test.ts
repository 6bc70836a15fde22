import { handler } from '../../../functions/presence/realm';
import { call, expectSuccess } from '../../helpers/api';
import { U, ZULIP, frozenPresenceTests, legacy, putRow } from './presence-fixture';

const get = (as: string) => call(handler, { method: 'GET', path: '/realm/presence', as });

let T: number;
frozenPresenceTests((now) => (T = now));

describe('GET /realm/presence', () => {
  it('returns the legacy presence of the last 14 days and server_timestamp, without presence_last_update_id', async () => {
    const body = expectSuccess(await get('hamlet@zulip.com'));
    expect(body).toEqual({
      result: 'success',
      msg: '',
      server_timestamp: T,
      presences: {
        'iago@zulip.com': legacy('active', T - 30),
        'hamlet@zulip.com': legacy('idle', T - 100),
        'cordelia@zulip.com': legacy('active', T - 172800),
      },
    });
  });

  it('answers a bot', async () => {
    const body = expectSuccess(await get('default-bot@zulip.com'));
    expect(Object.keys(body.presences).sort()).toEqual(['cordelia@zulip.com', 'hamlet@zulip.com', 'iago@zulip.com']);
  });

  it('leaves out a row that was never connected', async () => {
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
    const body = expectSuccess(await get('hamlet@zulip.com'));
    expect(body.presences).not.toHaveProperty('ZOE@zulip.com');
  });

  it('returns nothing in an organization with presence disabled', async () => {
    const body = expectSuccess(await get('king@lear.org'));
    expect(body).toEqual({ result: 'success', msg: '', server_timestamp: T, presences: {} });
  });
});
