// Reading messages over HTTP through serverless-offline with zulip-js: fetch the seeded messages of
// a channel narrow and of a direct-message narrow, mark them read, and see a new register's unread
// count drop by as many, with the flags event on the user's other queue.
import { useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

describe('e2e: fetching messages and marking them read with zulip-js', () => {
  it('reads a narrow, marks it read, and a new register counts fewer unread messages', async () => {
    const iago = await zulipClient(service, 'iago@zulip.com');
    const registerUnread = async () => {
      const body = await iago.queues.register({ event_types: ['message', 'update_message_flags'] });
      expect(body.result).toBe('success');
      return body;
    };
    const before = await registerUnread();

    const verona = await iago.messages.retrieve({ anchor: 'oldest', num_before: 0, num_after: 50, narrow: [{ operator: 'channel', operand: 'Verona' }] });
    expect(verona).toMatchObject({ result: 'success', found_oldest: true, found_newest: true });
    expect(verona.messages.map((m: { id: number }) => m.id)).toEqual([6, 7, 14]);
    const dms = await iago.messages.retrieve({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'dm', operand: 'hamlet@zulip.com' }] });
    expect(dms.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([
      [11, []],
      [12, ['read']],
    ]);

    const unread = [...verona.messages, ...dms.messages].filter((m: { flags: string[] }) => !m.flags.includes('read')).map((m: { id: number }) => m.id);
    expect(await iago.messages.flags.add({ flag: 'read', messages: unread })).toMatchObject({ result: 'success', messages: [6, 7, 14, 11] });

    const events = await iago.events.retrieve({ queue_id: before.queue_id, last_event_id: before.last_event_id, dont_block: true });
    expect(events.events.filter((e: { type: string }) => e.type === 'update_message_flags')).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [6, 7, 14, 11], all: false, id: expect.any(Number) },
    ]);
    const after = await registerUnread();
    expect(after.unread_msgs.count).toBe(before.unread_msgs.count - 4);
    expect(after.unread_msgs.pms).toEqual([]);
    // Each endpoint's first request starts its function in serverless-offline (slow on a busy machine).
  }, 120000);
});
