// The event queue over HTTP through serverless-offline, driven by the zulip-js client.
import { longPoll, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

describe('e2e: event queues with zulip-js', () => {
  it('registers, long-polls an event sent while it waits, deregisters, then gets BAD_EVENT_QUEUE_ID', async () => {
    const iago = await client('iago@zulip.com');
    const registered = await iago.queues.register({ event_types: ['drafts'] });
    expect(registered).toMatchObject({ result: 'success', last_event_id: -1, queue_id: expect.any(String) });
    const queueId = registered.queue_id;

    let answered = false;
    const waiting = iago.events.retrieve({ queue_id: queueId, last_event_id: -1 }).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    const created = await iago.callEndpoint('/drafts', 'POST', {
      drafts: JSON.stringify([{ type: 'stream', to: [3], topic: 'e2e', content: 'Sent while polling' }]),
    });
    expect(created.result).toBe('success');
    const polled = await longPoll(iago, queueId, -1, waiting);
    expect(polled.result).toBe('success');
    expect(polled.events).toEqual([
      {
        id: expect.any(Number),
        type: 'drafts',
        op: 'add',
        drafts: [expect.objectContaining({ id: created.ids[0], type: 'stream', to: [3], topic: 'e2e', content: 'Sent while polling' })],
      },
    ]);

    expect(await iago.queues.deregister({ queue_id: queueId })).toEqual({ result: 'success', msg: '' });
    const after = await iago.events.retrieve({ queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(after).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    expect(await iago.queues.deregister({ queue_id: queueId })).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  }, 90000);
});
