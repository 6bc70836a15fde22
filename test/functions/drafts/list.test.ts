import { handler as createDrafts } from '../../../functions/drafts/create';
import { handler as listDrafts } from '../../../functions/drafts/list';
import { nowSeconds } from '../../../lib/clock';
import { call, expectError, expectSuccess } from '../../helpers/api';

const get = (as: string) => call(listDrafts, { method: 'GET', path: '/drafts', as });
const create = async (as: string, drafts: unknown[]) =>
  expectSuccess(await call(createDrafts, { method: 'POST', path: '/drafts', as, params: { drafts } })).ids as number[];

describe('GET /drafts', () => {
  it("lists only the caller's drafts, least recently edited first, with their count", async () => {
    const now = nowSeconds();
    const body = expectSuccess(await get('iago@zulip.com'));
    expect(body.count).toBe(2);
    expect(body.drafts).toEqual([
      { id: 1, type: 'stream', to: [3], topic: 'Release Notes', content: 'Draft one', timestamp: expect.any(Number) },
      { id: 2, type: 'private', to: [10], topic: '', content: 'Draft two', timestamp: expect.any(Number) },
    ]);
    expect(now - body.drafts[0].timestamp).toBeGreaterThanOrEqual(3599);
    expect(body.drafts[1].timestamp - body.drafts[0].timestamp).toBe(1800);
  });

  it("shows another user only that user's own drafts", async () => {
    const body = expectSuccess(await get('hamlet@zulip.com'));
    expect(body).toMatchObject({ count: 1, drafts: [{ id: 3, type: '', to: [], topic: '', content: 'An unaddressed thought' }] });
  });

  it('orders by edit time, not by id, and returns timestamps as whole seconds', async () => {
    const [older, newer] = await create('cordelia@zulip.com', [
      { type: '', to: [], topic: '', content: 'edited later', timestamp: 2000.75 },
      { type: '', to: [], topic: '', content: 'edited first', timestamp: 1000.5 },
    ]);
    const body = expectSuccess(await get('cordelia@zulip.com'));
    expect(body.drafts.map((d: { id: number; timestamp: number }) => [d.id, d.timestamp])).toEqual([
      [newer, 1000],
      [older, 2000],
    ]);
  });

  it('returns an empty list for a user without drafts', async () => {
    expect(expectSuccess(await get('prospero@zulip.com'))).toMatchObject({ count: 0, drafts: [] });
  });

  it('refuses a user who disabled draft synchronization', async () => {
    expectError(await get('othello@zulip.com'), 'User has disabled synchronizing drafts.');
  });
});
