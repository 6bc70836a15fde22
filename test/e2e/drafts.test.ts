// Drafts over HTTP through serverless-offline with the zulip-js client: what one client of a user
// does arrives as drafts events on the queue of the same user's other client.
import { pollingQueue, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

const draftsQueue = (c: Awaited<ReturnType<typeof client>>) => pollingQueue(c, { event_types: ['drafts'] });

describe('e2e: drafts with zulip-js', () => {
  it("synchronizes a draft created, edited and deleted on one client to the same user's other queue", async () => {
    const phone = await client('iago@zulip.com');
    const laptop = await client('iago@zulip.com');
    const hamlet = await client('hamlet@zulip.com');
    const phoneQueue = await draftsQueue(phone);
    const laptopQueue = await draftsQueue(laptop);
    const hamletQueue = await draftsQueue(hamlet);
    expect(laptopQueue.registered.drafts.map((d: { id: number }) => d.id)).toEqual([2, 1]);

    const draft = { type: 'stream', to: [3], topic: 'e2e', content: 'Written on the phone', timestamp: 1700000000 };
    const created = await phone.callEndpoint('/drafts', 'POST', { drafts: [draft] });
    expect(created).toEqual({ result: 'success', msg: '', ids: [expect.any(Number)] });
    const [id] = created.ids as number[];
    expect(await laptopQueue.poll()).toEqual([{ type: 'drafts', op: 'add', drafts: [{ id, ...draft }] }]);
    expect(await phoneQueue.poll()).toEqual([{ type: 'drafts', op: 'add', drafts: [{ id, ...draft }] }]);

    const edited = { ...draft, content: 'Finished on the phone', timestamp: 1700000100 };
    expect(await phone.callEndpoint(`/drafts/${id}`, 'PATCH', { draft: JSON.stringify(edited) })).toEqual({ result: 'success', msg: '' });
    expect(await laptopQueue.poll()).toEqual([{ type: 'drafts', op: 'update', draft: { id, ...edited } }]);

    expect(await phone.callEndpoint(`/drafts/${id}`, 'DELETE', {})).toEqual({ result: 'success', msg: '' });
    expect(await laptopQueue.poll()).toEqual([{ type: 'drafts', op: 'remove', draft_id: id }]);

    expect(await hamletQueue.poll()).toEqual([]);
    const listed = await laptop.callEndpoint('/drafts', 'GET', {});
    expect(listed.drafts.map((d: { id: number }) => d.id)).toEqual([1, 2]);
  });

  it('answers a user who disabled draft synchronization with the upstream error', async () => {
    const othello = await client('othello@zulip.com');
    expect(await othello.callEndpoint('/drafts', 'GET', {})).toEqual({
      result: 'error',
      msg: 'User has disabled synchronizing drafts.',
      code: 'BAD_REQUEST',
    });
  });
});
