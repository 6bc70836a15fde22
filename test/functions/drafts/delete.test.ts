import { handler as deleteDraft } from '../../../functions/drafts/delete';
import * as draftsStore from '../../../lib/store/drafts';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const HAMLET = 10;
/** A fresh draft of Hamlet's, so that each test deletes its own. */
const hamletDraft = async (id: number) => {
  await draftsStore.createDrafts([{ id, userId: HAMLET, type: '', to: [], topic: '', content: `draft ${id}`, timestamp: 1700000000 }]);
  return id;
};
const del = (as: string, id: number) =>
  call(deleteDraft, { method: 'DELETE', path: `/drafts/${id}`, pathParameters: { draft_id: String(id) }, as });

describe('DELETE /drafts/{draft_id}', () => {
  it('deletes the draft', async () => {
    expectSuccess(await del('iago@zulip.com', 2));
    expect(await draftsStore.getDraft(IAGO, 2)).toBeUndefined();
    expect((await draftsStore.listDraftsOfUser(IAGO)).map((d) => d.id)).toEqual([1]);
  });

  it('returns 404 "Draft does not exist" on a second delete', async () => {
    expectSuccess(await del('iago@zulip.com', 1));
    expectError(await del('iago@zulip.com', 1), 'Draft does not exist', 404);
  });

  it("returns 404 for another user's draft and keeps it", async () => {
    const before = await draftsStore.getDraft(HAMLET, 3);
    expectError(await del('iago@zulip.com', 3), 'Draft does not exist', 404);
    expect(await draftsStore.getDraft(HAMLET, 3)).toEqual(before);
  });

  it('lets only one of two concurrent deletes succeed', async () => {
    const id = await hamletDraft(900);
    const results = await Promise.all([del('hamlet@zulip.com', id), del('hamlet@zulip.com', id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await draftsStore.getDraft(HAMLET, id)).toBeUndefined();
  });

  it('refuses a user who disabled draft synchronization', async () => {
    expectError(await del('othello@zulip.com', 1), 'User has disabled synchronizing drafts.');
  });

  it("sends a drafts remove event to the owner's queues only", async () => {
    const id = await hamletDraft(901);
    const hamletQueue = await openQueue('hamlet@zulip.com', { eventTypes: ['drafts'] });
    const iagoQueue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    expectSuccess(await del('hamlet@zulip.com', id));
    expect(await hamletQueue.drain()).toEqual([{ type: 'drafts', op: 'remove', draft_id: id }]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('sends no event for a draft that does not exist', async () => {
    const queue = await openQueue('iago@zulip.com', { eventTypes: ['drafts'] });
    expectError(await del('iago@zulip.com', 999), 'Draft does not exist', 404);
    expect(await queue.drain()).toEqual([]);
  });
});
