// POST /realm/deactivate: owners deactivate their organization; afterwards none of its users can
// use the API, fetch an API key, or keep polling their event queues.
import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as register } from '../../../functions/events/register';
import { handler as deactivate } from '../../../functions/realm/deactivate';
import { handler as updateRealm } from '../../../functions/realm/update';
import { fetchEvents } from '../../../lib/events/queues';
import { devPassword } from '../../../lib/passwords';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const post = (as: string, params: Record<string, unknown> = {}) =>
  call(deactivate, { method: 'POST', path: '/realm/deactivate', as, params });
const stored = async (realmId = 2) => (await realmsStore.get(realmId, { consistent: true }))!;
const DEACTIVATED: [string, number, string] = ['This organization has been deactivated', 401, 'REALM_DEACTIVATED'];

describe('POST /realm/deactivate', () => {
  it.each([['iago@zulip.com'], ['shiva@zulip.com'], ['hamlet@zulip.com'], ['polonius@zulip.com']])(
    'refuses %s, who is no owner, and changes nothing',
    async (as) => {
      const queue = await openQueue('cordelia@zulip.com');
      expectError(await post(as), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
      expect((await stored()).deactivated).toBe(false);
      expect(await queue.drain()).toEqual([]);
    },
  );

  it('refuses a deletion delay that is not an integer, and changes nothing', async () => {
    expectError(await post('desdemona@zulip.com', { deletion_delay_days: '"soon"' }), 'deletion_delay_days is not an integer');
    expect((await stored()).deactivated).toBe(false);
  });

  it('deactivates the organization: every user gets realm deactivated, then nobody of it can use the API', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const lear = await stored(3);
    expectSuccess(await post('desdemona@zulip.com', { deletion_delay_days: 'null' }));
    expect((await stored()).deactivated).toBe(true);

    // The event reached the queue (read past authentication, which now refuses its owner).
    const hamlet = (await usersStore.get(2, 10))!;
    const events = await fetchEvents(hamlet, { queueId: queue.queueId, lastEventId: -1, dontBlock: true });
    expect(events.map(({ id: _id, ...event }) => event)).toEqual([{ type: 'realm', op: 'deactivated', realm_id: 2 }]);

    // The queue's polls end, and every other request is refused.
    const poll = await call(getEvents, {
      method: 'GET',
      path: '/events',
      as: 'hamlet@zulip.com',
      params: { queue_id: queue.queueId, last_event_id: -1, dont_block: true },
    });
    expectError(poll, ...DEACTIVATED);
    expectError(await call(register, { method: 'POST', path: '/register', as: 'iago@zulip.com' }), ...DEACTIVATED);
    expectError(await call(updateRealm, { method: 'PATCH', path: '/realm', as: 'iago@zulip.com', params: { name: 'x' } }), ...DEACTIVATED);
    expectError(await post('desdemona@zulip.com'), ...DEACTIVATED);
    const key = await call(fetchApiKey, {
      method: 'POST',
      path: '/fetch_api_key',
      params: { username: 'hamlet@zulip.com', password: devPassword('hamlet@zulip.com') },
    });
    expectError(key, ...DEACTIVATED);

    // Another organization goes on.
    expect(await stored(3)).toEqual(lear);
    expectSuccess(await call(register, { method: 'POST', path: '/register', as: 'king@lear.org', params: { fetch_event_types: [] } }));
  });
});
