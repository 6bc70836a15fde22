// POST /messages retried by its client: a send with the queue_id and local_id of one the same user
// made within the last 5 minutes (SENT_LOCAL_ID_SECONDS) stores nothing and answers that message's
// id; the recipients get the message once.
import { advanceClock, freezeClock } from '../../../lib/clock';
import * as messagesStore from '../../../lib/store/messages';
import { expectSuccess } from '../../helpers/api';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { sendMessage as send } from '../../helpers/messages';

const DENMARK = { type: 'stream', to: 1, topic: 'retries' };
let n = 0;
/** A fresh client identity: the sending client's queue id and its local id for the message. */
const identity = () => ({ queue_id: `queue-${(n += 1)}`, local_id: '1.01' });
const messageIdsOf = (events: Record<string, any>[]) => events.filter((e) => e.type === 'message').map((e) => e.message.id);

describe('POST /messages with the queue_id and local_id of an earlier send', () => {
  it('stores one message, answers its id to both, and delivers it once', async () => {
    const queues = await openQueuesOf([10, 11]);
    const sent = identity();
    const first = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'once', ...sent }));
    const again = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'once', ...sent }));
    expect(again).toEqual({ result: 'success', msg: '', id: first.id });
    const received = await drainQueues(queues);
    expect([messageIdsOf(received[10]!), messageIdsOf(received[11]!)]).toEqual([[first.id], [first.id]]);
    expect((await messagesStore.getMessage(2, first.id as number))?.content).toBe('once');
  });

  it('stores one message when the two sends run at once', async () => {
    const sent = identity();
    const results = await Promise.all([1, 2, 3].map(() => send('hamlet@zulip.com', { ...DENMARK, content: 'at once', ...sent })));
    const ids = results.map((r) => expectSuccess(r).id);
    expect(new Set(ids).size).toBe(1);
    expect((await messagesStore.getMessage(2, ids[0] as number))?.content).toBe('at once');
  });

  it.each([
    ['another local_id', { local_id: '2.01' }],
    ['another queue_id', { queue_id: 'another-queue' }],
  ])('stores a new message for %s', async (_, change) => {
    const sent = identity();
    const first = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'one', ...sent }));
    const second = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'two', ...sent, ...change }));
    expect(second.id).not.toBe(first.id);
    expect((await messagesStore.getMessage(2, second.id as number))?.content).toBe('two');
  });

  it("stores a new message for another user's send with the same identity", async () => {
    const sent = identity();
    const first = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'mine', ...sent }));
    const other = expectSuccess(await send('iago@zulip.com', { ...DENMARK, content: 'mine too', ...sent }));
    expect(other.id).not.toBe(first.id);
    expect((await messagesStore.getMessage(2, other.id as number))?.senderId).toBe(11);
  });

  it('stores a new message for a send without queue_id, as upstream', async () => {
    const first = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'no queue', local_id: '1.01' }));
    const second = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'no queue', local_id: '1.01' }));
    expect(second.id).not.toBe(first.id);
  });

  it(`stores a new message once ${messagesStore.SENT_LOCAL_ID_SECONDS} seconds have passed`, async () => {
    // Frozen: with the clock running, the second before expiry is less than one (the send's time is
    // kept in whole seconds), and a slow send crossed it.
    freezeClock(Date.now());
    const sent = identity();
    const first = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'later', ...sent }));
    advanceClock(messagesStore.SENT_LOCAL_ID_SECONDS * 1000 - 1000);
    expect(expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'later', ...sent })).id).toBe(first.id);
    advanceClock(2000);
    const late = expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'later', ...sent }));
    expect(late.id).not.toBe(first.id);
    // The new message now holds the identity.
    expect(expectSuccess(await send('hamlet@zulip.com', { ...DENMARK, content: 'later', ...sent })).id).toBe(late.id);
  });
});
