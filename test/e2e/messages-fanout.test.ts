// A send past MESSAGE_INLINE_RECIPIENTS over HTTP, with zulip-js: the request answers after writing
// the message and the sender's row, and the messageFanout job runs as deployed, as an asynchronous
// invocation of its own Lambda function (serverless-offline's Lambda endpoint). The threshold is 1
// here, so Denmark's 7 subscribers take that path.
import { longPoll, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService({ env: { MESSAGE_INLINE_RECIPIENTS: '1' } });

describe('e2e: a send whose rows and events a background job writes', () => {
  it('delivers the message to another subscriber, who then finds it in the channel narrow and marks it read', async () => {
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const iago = await zulipClient(service, 'iago@zulip.com');
    const own = await hamlet.queues.register({ event_types: ['message'] });
    const queue = await iago.queues.register({ event_types: ['message'] });
    const unreadBefore = (await iago.queues.register({ event_types: ['message', 'update_message_flags'] })).unread_msgs.count;

    const sent = await hamlet.messages.send({
      type: 'stream',
      to: 'Denmark',
      topic: 'e2e job',
      content: 'Hello @**Iago**',
      queue_id: own.queue_id,
      local_id: '1.01',
    });
    expect(sent).toMatchObject({ result: 'success', id: expect.any(Number) });

    // A long-poll (not dont_block): the event comes when the job has written the rows.
    const polled = await longPoll(iago, queue.queue_id, -1);
    expect(polled.events.map((e: any) => [e.type, e.message.id, e.flags])).toEqual([['message', sent.id, ['mentioned']]]);
    const echoed = await longPoll(hamlet, own.queue_id, -1);
    expect(echoed.events.map((e: any) => [e.type, e.message.id, e.local_message_id])).toEqual([['message', sent.id, '1.01']]);
    // It ran as the messageFanout function, through the Lambda endpoint: serverless-offline logs the
    // invocation when it ends, a moment after the events (the job clears the message's mark last).
    const invocations = () => service.logs.filter((line) => line.startsWith('(λ: messageFanout) RequestId'));
    for (let waited = 0; invocations().length === 0 && waited < 15000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    expect(invocations()).toHaveLength(1);

    const fetched = await iago.messages.retrieve({
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'e2e job' },
      ],
    });
    expect(fetched.messages.map((m: any) => [m.id, m.flags])).toEqual([[sent.id, ['mentioned']]]);
    expect((await iago.queues.register({ event_types: ['message', 'update_message_flags'] })).unread_msgs.count).toBe(unreadBefore + 1);
    expect(await iago.messages.flags.add({ flag: 'read', messages: [sent.id] })).toMatchObject({ result: 'success', messages: [sent.id] });
    expect((await iago.queues.register({ event_types: ['message', 'update_message_flags'] })).unread_msgs.count).toBe(unreadBefore);
  }, 120000);
});
