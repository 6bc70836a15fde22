import { handler as register } from '../../../functions/events/register';
import { batchPut } from '../../../lib/store/common';
import * as draftsStore from '../../../lib/store/drafts';
import { call, expectSuccess } from '../../helpers/api';

const snapshot = async (as: string | undefined, params: Record<string, unknown> = { fetch_event_types: ['drafts'] }) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

describe('POST /register: drafts', () => {
  it("returns the caller's drafts, most recently edited first", async () => {
    const body = await snapshot('iago@zulip.com');
    expect(body.drafts).toEqual([
      { id: 2, type: 'private', to: [10], topic: '', content: 'Draft two', timestamp: expect.any(Number) },
      { id: 1, type: 'stream', to: [3], topic: 'Release Notes', content: 'Draft one', timestamp: expect.any(Number) },
    ]);
    expect(body.drafts[0].timestamp - body.drafts[1].timestamp).toBe(1800);
  });

  it('returns an empty list to a user who disabled draft synchronization, even with stored drafts', async () => {
    await draftsStore.createDrafts([{ id: 700, userId: 12, type: '', to: [], topic: '', content: 'stale', timestamp: 1700000000 }]);
    expect((await snapshot('othello@zulip.com')).drafts).toEqual([]);
  });

  it('returns an empty list to a spectator', async () => {
    expect((await snapshot(undefined)).drafts).toEqual([]);
  });

  it('leaves drafts out when they are not wanted', async () => {
    expect(await snapshot('iago@zulip.com', { fetch_event_types: ['alert_words'] })).not.toHaveProperty('drafts');
  });

  it('returns at most the 1000 most recently edited drafts', async () => {
    const userId = 14;
    const drafts = Array.from({ length: 1005 }, (_v, i) => ({
      id: 10000 + i,
      userId,
      type: '' as const,
      to: [],
      topic: '',
      content: `n${i}`,
      timestamp: 1600000000 + ((i * 7919) % 1005),
    }));
    await batchPut('main', drafts.map(draftsStore.buildDraftItem));
    const body = await snapshot('prospero@zulip.com');
    const expected = [...drafts]
      .sort((a, b) => b.timestamp - a.timestamp)
      .slice(0, 1000)
      .map((d) => d.id);
    expect(body.drafts.map((d: { id: number }) => d.id)).toEqual(expected);
  });
});
