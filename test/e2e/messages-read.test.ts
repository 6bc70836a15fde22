// Reading messages over HTTP through serverless-offline with zulip-js: Hamlet sends a channel
// message and a direct message to Iago (POST /messages); Iago fetches them in a channel narrow and
// a direct-message narrow, marks them read, and a new register's unread count drops by as many,
// with the flags event on Iago's other queue.
import { useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

describe('e2e: fetching messages and marking them read with zulip-js', () => {
  it('fetches sent messages in narrows, marks them read, and a new register counts fewer unread messages', async () => {
    const iago = await zulipClient(service, 'iago@zulip.com');
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const registerUnread = async () => {
      const body = await iago.queues.register({ event_types: ['message', 'update_message_flags'] });
      expect(body.result).toBe('success');
      return body;
    };
    const sentToChannel = await hamlet.messages.send({ type: 'stream', to: 'Verona', topic: 'e2e reading', content: 'Read me' });
    const sentDirect = await hamlet.messages.send({ type: 'direct', to: JSON.stringify([11]), content: 'And me' });
    expect([sentToChannel.result, sentDirect.result]).toEqual(['success', 'success']);
    const before = await registerUnread();

    const topic = await iago.messages.retrieve({
      anchor: 'oldest',
      num_before: 0,
      num_after: 50,
      narrow: [
        { operator: 'channel', operand: 'Verona' },
        { operator: 'topic', operand: 'e2e reading' },
      ],
    });
    expect(topic).toMatchObject({ result: 'success', found_oldest: true, found_newest: true });
    expect(topic.messages.map((m: { id: number; content: string; flags: string[] }) => [m.id, m.content, m.flags])).toEqual([
      [sentToChannel.id, '<p>Read me</p>', []],
    ]);
    const dms = await iago.messages.retrieve({
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: 'hamlet@zulip.com' }],
    });
    expect(dms.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([
      [11, []],
      [12, ['read']],
      [sentDirect.id, []],
    ]);

    const unread = [...topic.messages, ...dms.messages]
      .filter((m: { flags: string[] }) => !m.flags.includes('read'))
      .map((m: { id: number }) => m.id);
    expect(unread).toEqual([sentToChannel.id, 11, sentDirect.id]);
    expect(await iago.messages.flags.add({ flag: 'read', messages: unread })).toMatchObject({ result: 'success', messages: unread });

    const events = await iago.events.retrieve({ queue_id: before.queue_id, last_event_id: before.last_event_id, dont_block: true });
    expect(events.events.filter((e: { type: string }) => e.type === 'update_message_flags')).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: unread, all: false, id: expect.any(Number) },
    ]);
    const after = await registerUnread();
    expect(after.unread_msgs.count).toBe(before.unread_msgs.count - 3);
    expect(after.unread_msgs.pms).toEqual([]);
    // Each endpoint's first request starts its function in serverless-offline (slow on a busy machine).
  }, 180000);

  it('marks a topic read with POST /mark_topic_as_read, as the Python library calls it', async () => {
    const iago = await zulipClient(service, 'iago@zulip.com');
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    const sent = await hamlet.messages.send({ type: 'stream', to: 'Verona', topic: 'e2e bulk read', content: 'Mark me' });
    expect(sent.result).toBe('success');
    const flagsOfSent = async () =>
      (await iago.messages.retrieve({ anchor: sent.id, num_before: 0, num_after: 0, narrow: [] })).messages.map(
        (m: { flags: string[] }) => m.flags,
      );
    expect(await flagsOfSent()).toEqual([[]]);
    expect(await iago.callEndpoint('/mark_topic_as_read', 'POST', { stream_id: 3, topic_name: 'e2e bulk read' })).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await flagsOfSent()).toEqual([['read']]);
  }, 180000);
});
