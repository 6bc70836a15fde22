// POST /messages past MESSAGE_INLINE_RECIPIENTS (set to 2 here, so that Denmark's 7 subscribers
// take the large-send path): the request writes the message and the sender's row and answers; the
// messageFanout job (in this process: lib/store/jobs.ts) then writes every other row and sends every
// recipient's event, and only then removes the message's pending delivery. Denmark (1) has
// subscribers 7, 9, 10, 11, 12, 14, 15; Hamlet is 10, Iago 11, Othello 12.
import { handler as sendHandler } from '../../../functions/messages/send';
import { handler as deleteHandler } from '../../../functions/messages/delete';
import { doMessageFanout } from '../../../lib/actions/messages/delivery';
import * as editsStore from '../../../lib/store/message-edits';
import * as messagesStore from '../../../lib/store/messages';
import * as streams from '../../../lib/store/event-streams';
import { holdJobs, releaseJobs, settleJobs } from '../../../lib/store/jobs';
import { eventKeys } from '../../../lib/store/keys';
import { call, expectSuccess } from '../../helpers/api';
import { neverFollowNewTopics, openQueue, type TestQueue } from '../../helpers/events';

const REALM = 2;
const DENMARK = [7, 9, 10, 11, 12, 14, 15];

const send = (params: Record<string, unknown>, opts: { settleJobs?: boolean } = {}) =>
  call(sendHandler, { method: 'POST', path: '/messages', as: 'hamlet@zulip.com', params, ...opts });

const messagesIn = async (queue: TestQueue) =>
  (await queue.drain())
    .filter((e) => e.type === 'message')
    .map((e) => ({ id: e.message.id, flags: e.flags, local_message_id: e.local_message_id }));

/** The stored rows of a message, as user id → flags. */
const rowsOf = async (messageId: number) =>
  Object.fromEntries((await editsStore.listRowsOfMessage(messageId, DENMARK)).map((r) => [r.userId, r.flags]));

describe('POST /messages to more recipients than a send writes itself', () => {
  beforeAll(async () => {
    process.env.MESSAGE_INLINE_RECIPIENTS = '2';
    await neverFollowNewTopics('hamlet@zulip.com');
  });
  afterAll(() => {
    delete process.env.MESSAGE_INLINE_RECIPIENTS;
  });

  it("answers with the message and the sender's row written, before any other row or any event", async () => {
    const streamNames = [eventKeys.realmStream(REALM, 0), ...DENMARK.map(eventKeys.userStream)];
    const before = await streams.getHeads(streamNames, { consistent: true });
    holdJobs();
    const { id } = expectSuccess(
      await send({ type: 'stream', to: 1, topic: 'castle', content: 'early', read_by_sender: true }, { settleJobs: false }),
    );
    expect(await messagesStore.getMessage(REALM, id, { consistent: true })).toMatchObject({ id, pendingDelivery: { rowsWritten: false } });
    expect(await rowsOf(id)).toEqual({ 10: ['read'] });
    expect(await streams.getHeads(streamNames, { consistent: true })).toEqual(before);
    await settleJobs();
  });

  it("then writes every recipient's row with its own flags, sends each its event (the sender's with its local_id) and clears the mark", async () => {
    const [hamlet, iago, othello] = await Promise.all(['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com'].map((e) => openQueue(e)));
    const { id } = expectSuccess(
      await send(
        {
          type: 'stream',
          to: 1,
          topic: 'castle',
          content: 'Hello @**Iago**',
          read_by_sender: true,
          queue_id: hamlet.queueId,
          local_id: '7.01',
        },
        { settleJobs: false },
      ),
    );
    await settleJobs();
    expect(await rowsOf(id)).toEqual({ 7: [], 9: [], 10: ['read'], 11: ['mentioned'], 12: [], 14: [], 15: [] });
    expect(await messagesIn(hamlet)).toEqual([{ id, flags: ['read'], local_message_id: '7.01' }]);
    expect(await messagesIn(iago)).toEqual([{ id, flags: ['mentioned'], local_message_id: undefined }]);
    expect(await messagesIn(othello)).toEqual([{ id, flags: [], local_message_id: undefined }]);
    expect((await messagesStore.getMessage(REALM, id, { consistent: true }))!.pendingDelivery).toBeUndefined();
  });

  it('sends the same events and writes the same rows as a send that writes them all itself', async () => {
    const deliveredBy = async (inline: string) => {
      process.env.MESSAGE_INLINE_RECIPIENTS = inline;
      const othello = await openQueue('othello@zulip.com');
      const { id } = expectSuccess(await send({ type: 'stream', to: 1, topic: 'same', content: 'Hi @**all** and @**Iago**' }));
      const [event] = (await othello.drain()).filter((e) => e.type === 'message');
      const { id: _id, timestamp: _ts, ...message } = event.message;
      return { rows: await rowsOf(id), event: { ...event, id: undefined, message } };
    };
    try {
      expect(await deliveredBy('2')).toEqual(await deliveredBy('100'));
    } finally {
      process.env.MESSAGE_INLINE_RECIPIENTS = '2';
    }
  });

  it('makes a delete of a message whose job has not run yet wait for it, leaving no row and the events in order', async () => {
    const othello = await openQueue('othello@zulip.com');
    holdJobs();
    const { id } = expectSuccess(await send({ type: 'stream', to: 1, topic: 'castle', content: 'gone soon' }, { settleJobs: false }));
    let answered = false;
    const deleted = call(deleteHandler, {
      method: 'DELETE',
      path: `/messages/${id}`,
      as: 'iago@zulip.com',
      pathParameters: { message_id: String(id) },
      settleJobs: false,
    }).then((result) => {
      answered = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered).toBe(false);
    releaseJobs();
    expectSuccess(await deleted);
    expect(await rowsOf(id)).toEqual({});
    expect(await messagesStore.getMessage(REALM, id, { consistent: true })).toBeUndefined();
    const types = (await othello.drain()).filter((e) => e.type === 'message' || e.type === 'delete_message').map((e) => e.type);
    expect(types).toEqual(['message', 'delete_message']);
  });

  it('does nothing when the job runs again for a message it already delivered', async () => {
    const { id } = expectSuccess(await send({ type: 'stream', to: 1, topic: 'castle', content: 'once' }));
    const othello = await openQueue('othello@zulip.com');
    const before = await rowsOf(id);
    await doMessageFanout({ realmId: REALM, messageId: id });
    expect(await rowsOf(id)).toEqual(before);
    expect(await messagesIn(othello)).toEqual([]);
  });
});
