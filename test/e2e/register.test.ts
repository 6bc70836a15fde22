// POST /register over HTTP through serverless-offline with the zulip-js client, and a spectator's
// register with no credentials.
import fixture from '../../seed/dev-realm.json';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { expectRegisterKeys } from '../helpers/openapi';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

describe('e2e: register with zulip-js', () => {
  it('returns a full snapshot a mobile client accepts', async () => {
    const iago = await client('iago@zulip.com');
    const body = await iago.queues.register({});
    expect(body.result).toBe('success');
    expectRegisterKeys(body);
    expect(body.unread_msgs.count).toBe(fixture.expected_for_iago.unread_count);
    expect(body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['Denmark', 'Scotland', 'Verona', 'core team']);
  });

  it('returns only the sections of the event types it names', async () => {
    const hamlet = await client('hamlet@zulip.com');
    const body = await hamlet.queues.register({ event_types: ['message', 'update_message_flags', 'alert_words'] });
    expect(body).toMatchObject({ result: 'success', max_message_id: 14, alert_words: ['ghost'], unread_msgs: { count: 2 } });
    expect(body).not.toHaveProperty('subscriptions');
    expect(body).not.toHaveProperty('realm_users');
  });

  it('serves a spectator the web-public channels without a queue', async () => {
    const result = await service.request('POST', '/register', {
      params: { fetch_event_types: JSON.stringify(['subscription', 'stream']) },
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ result: 'success', queue_id: null });
    expect(result.body!.subscriptions.map((s: { name: string }) => s.name)).toEqual(['Rome']);
    expect(result.body).not.toHaveProperty('streams');
  });
});
