// Presence over HTTP through serverless-offline with the zulip-js client.
import { longPoll, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

describe('e2e: presence with zulip-js', () => {
  it("reports the caller's presence and returns the other users' presence in the modern format", async () => {
    const hamlet = await client('hamlet@zulip.com');
    const before = Math.floor(Date.now() / 1000);
    const body = await hamlet.callEndpoint('/users/me/presence', 'POST', { status: 'active', slim_presence: 'true' });
    const after = Math.ceil(Date.now() / 1000);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      presences: expect.any(Object),
      server_timestamp: expect.any(Number),
      presence_last_update_id: 7,
    });
    // Hamlet (just reported), Iago and Cordelia are within 14 days; Othello is older, the bot and the deactivated user never appear.
    expect(Object.keys(body.presences).sort()).toEqual(['10', '11', '8']);
    // Hamlet's report is stamped during this request, no later than server_timestamp.
    const { active_timestamp, idle_timestamp } = body.presences['10'];
    expect(idle_timestamp).toBe(active_timestamp);
    expect(active_timestamp).toBeGreaterThanOrEqual(before);
    expect(body.server_timestamp).toBeGreaterThanOrEqual(active_timestamp);
    expect(body.server_timestamp).toBeLessThanOrEqual(after);
    expect(body.presences['11']).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
  });

  it('polls incrementally with last_update_id', async () => {
    const iago = await client('iago@zulip.com');
    const first = await iago.callEndpoint('/users/me/presence', 'POST', { status: 'idle', last_update_id: -1 });
    const again = await iago.callEndpoint('/users/me/presence', 'POST', { status: 'idle', last_update_id: first.presence_last_update_id });
    expect(again.presences).toEqual({});
    expect(again.presence_last_update_id).toBe(first.presence_last_update_id);
  });

  it("returns one user's presence and the organization's legacy presence", async () => {
    const hamlet = await client('hamlet@zulip.com');
    await hamlet.callEndpoint('/users/me/presence', 'POST', { status: 'active', ping_only: 'true' });
    const cordelia = await client('cordelia@zulip.com');
    const single = await cordelia.callEndpoint('/users/hamlet@zulip.com/presence', 'GET', {});
    expect(single).toEqual({
      result: 'success',
      msg: '',
      presence: {
        website: { status: 'active', timestamp: expect.any(Number) },
        aggregated: { status: 'active', timestamp: expect.any(Number) },
      },
    });
    const realm = await cordelia.callEndpoint('/realm/presence', 'GET', {});
    expect(realm.presences['hamlet@zulip.com'].website).toMatchObject({ client: 'website', status: 'active', pushable: false });
  });

  it('delivers a user coming online to a long-polling queue in the legacy shape', async () => {
    const iago = await client('iago@zulip.com');
    // Othello was last active 20 days before seeding.
    const othello = await client('othello@zulip.com');
    const { queue_id, last_event_id } = await iago.queues.register({ event_types: ['presence'] });
    const waiting = iago.events.retrieve({ queue_id, last_event_id });
    await othello.callEndpoint('/users/me/presence', 'POST', { status: 'active', ping_only: 'true' });
    const { events } = await longPoll(iago, queue_id, last_event_id, waiting);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        type: 'presence',
        user_id: 12,
        email: 'othello@zulip.com',
        server_timestamp: expect.any(Number),
        presence: { website: { client: 'website', status: 'active', timestamp: expect.any(Number), pushable: false } },
      },
    ]);
  }, 90000);
});
