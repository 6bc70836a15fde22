// Sending messages over HTTP through serverless-offline with zulip-js: a channel message and a
// direct message, received on another user's waiting queue.
import { useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

describe('e2e: sending messages with zulip-js', () => {
  it('sends a channel message and a direct message that another user receives on its queue', async () => {
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const iago = await zulipClient(service, 'iago@zulip.com');
    const registered = await iago.queues.register({ event_types: ['message'], apply_markdown: 'true' });
    expect(registered.result).toBe('success');

    const channel = await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'e2e', content: 'Hello @**Iago**' });
    // Hamlet starts the topic, so he follows it (upstream's default automatically_follow_topics_policy).
    expect(channel).toEqual({ result: 'success', msg: '', id: expect.any(Number), automatic_new_visibility_policy: 3 });
    const direct = await hamlet.messages.send({ type: 'direct', to: 'iago@zulip.com', content: 'Just for you' });
    expect(direct).toEqual({ result: 'success', msg: '', id: channel.id + 1 });

    const polled = await iago.events.retrieve({ queue_id: registered.queue_id, last_event_id: -1, dont_block: true });
    expect(polled.result).toBe('success');
    expect(
      polled.events.map((e: any) => [
        e.type,
        e.message.id,
        e.message.type,
        e.message.display_recipient instanceof Array ? 'dm' : e.message.display_recipient,
        e.message.content,
        e.flags,
      ]),
    ).toEqual([
      ['message', channel.id, 'stream', 'Denmark', '<p>Hello <span class="user-mention" data-user-id="11">@Iago</span></p>', ['mentioned']],
      ['message', direct.id, 'private', 'dm', '<p>Just for you</p>', []],
    ]);
  }, 90000);
});
