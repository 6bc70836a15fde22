import { handler as register } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';
import { patchOrder } from './helpers';

const fetchState = async (as: string, types: string[], capabilities?: Record<string, boolean>) =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as,
      params: { fetch_event_types: types, ...(capabilities ? { client_capabilities: capabilities } : {}) },
    }),
  );

describe('POST /register: realm_linkifiers and realm_filters', () => {
  it('lists the linkifiers in order for clients with linkifier_url_template', async () => {
    expectSuccess(await patchOrder('iago@zulip.com', [2, 3, 1]));
    const body = await fetchState('hamlet@zulip.com', ['realm_linkifiers'], { linkifier_url_template: true });
    expect((body.realm_linkifiers as { id: number }[]).map((l) => l.id)).toEqual([2, 3, 1]);
    expect(body.realm_linkifiers[0]).toEqual({
      id: 2,
      pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})',
      url_template: 'https://github.com/zulip/zulip-mobile/pull/{id}',
    });
  });

  it('is empty for clients without the capability', async () => {
    expect((await fetchState('hamlet@zulip.com', ['realm_linkifiers'])).realm_linkifiers).toEqual([]);
  });

  it('always answers realm_filters with an empty list', async () => {
    const body = await fetchState('hamlet@zulip.com', ['realm_filters'], { linkifier_url_template: true });
    expect(body.realm_filters).toEqual([]);
  });

  it("shows king@lear.org only his organization's linkifiers", async () => {
    const body = await fetchState('king@lear.org', ['realm_linkifiers'], { linkifier_url_template: true });
    expect((body.realm_linkifiers as { id: number }[]).map((l) => l.id)).toEqual([4]);
  });
});
