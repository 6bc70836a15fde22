import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { handler as list } from '../../../functions/linkifiers/list';
import { addLinkifier, listIds, patchOrder } from './helpers';

describe('PATCH /realm/linkifiers', () => {
  it('starts in the seeded order', async () => {
    expect(await listIds()).toEqual([1, 2, 3]);
  });

  it('puts the linkifiers in the order of the list', async () => {
    expectSuccess(await patchOrder('iago@zulip.com', [3, 1, 2]));
    expect(await listIds()).toEqual([3, 1, 2]);
  });

  it('refuses duplicates and keeps the order', async () => {
    expectError(await patchOrder('iago@zulip.com', [1, 1, 2, 3]), 'The ordered list must not contain duplicated linkifiers');
    expect(await listIds()).toEqual([3, 1, 2]);
  });

  it.each([
    ['a missing id', [1, 2]],
    ['an extra id', [1, 2, 3, 999]],
    ["another organization's id", [1, 2, 3, 4]],
    ["another organization's id in place of one of ours", [1, 2, 4]],
    ['an empty list', []],
  ])('refuses %s with "…enumerate all existing linkifiers exactly once"', async (_label, ids) => {
    expectError(await patchOrder('iago@zulip.com', ids), 'The ordered list must enumerate all existing linkifiers exactly once');
    expect(await listIds()).toEqual([3, 1, 2]);
  });

  it('refuses a member with "Must be an organization administrator"', async () => {
    expectError(await patchOrder('hamlet@zulip.com', [1, 2, 3]), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await listIds()).toEqual([3, 1, 2]);
  });

  it('refuses a moderator and a guest', async () => {
    expectError(await patchOrder('shiva@zulip.com', [1, 2, 3]), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expectError(await patchOrder('polonius@zulip.com', [1, 2, 3]), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  });

  it("does not let king@lear.org see or touch the first organization's linkifiers", async () => {
    expectError(await patchOrder('king@lear.org', [3, 1, 2]), 'The ordered list must enumerate all existing linkifiers exactly once');
    expectSuccess(await patchOrder('king@lear.org', [4]));
    expect(await listIds('king@lear.org')).toEqual([4]);
    expect(await listIds()).toEqual([3, 1, 2]);
  });

  it('validates the parameter', async () => {
    expectError(await patchOrder('iago@zulip.com', '[1,"2"]'), 'ordered_linkifier_ids[1] is not an integer');
    expectError(
      await call((await import('../../../functions/linkifiers/reorder')).handler, {
        method: 'PATCH',
        path: '/realm/linkifiers',
        as: 'iago@zulip.com',
      }),
      "Missing 'ordered_linkifier_ids' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('appends a new linkifier after the reordered ones', async () => {
    const { id } = expectSuccess(await addLinkifier('iago@zulip.com', 'new-(?P<id>[0-9]+)', 'https://example.com/{id}'));
    expect(await listIds()).toEqual([3, 1, 2, id]);
  });

  it('leaves one complete order after two concurrent reorders', async () => {
    const ids = await listIds();
    const a = [...ids].reverse();
    const b = [ids[1], ids[0], ...ids.slice(2)];
    const results = await Promise.all([patchOrder('iago@zulip.com', a), patchOrder('desdemona@zulip.com', b)]);
    results.forEach((r) => expectSuccess(r));
    const final = await listIds();
    expect([a, b]).toContainEqual(final);
    const orders = (
      expectSuccess(await call(list, { method: 'GET', path: '/realm/linkifiers', as: 'iago@zulip.com' })).linkifiers as unknown[]
    ).length;
    expect(orders).toBe(ids.length);
  });

  it('keeps a consistent order through many concurrent reorders', async () => {
    const ids = await listIds();
    const orders = Array.from({ length: 6 }, (_, n) => [...ids.slice(n % ids.length), ...ids.slice(0, n % ids.length)]);
    await Promise.all(orders.map((o) => patchOrder('iago@zulip.com', o)));
    const { readLinkifierList } = await import('../../../lib/store/linkifiers');
    const stored = (await readLinkifierList(2, { consistent: true })).linkifiers;
    // Every linkifier has a distinct order, and the resulting list is one of the requested ones.
    expect(new Set(stored.map((l) => l.order)).size).toBe(ids.length);
    expect(orders).toContainEqual(await listIds());
  });

  it('sends the whole ordered list only to queues with linkifier_url_template', async () => {
    const capable = await openQueue('hamlet@zulip.com', { capabilities: { linkifier_url_template: true } });
    const legacy = await openQueue('hamlet@zulip.com');
    const other = await openQueue('king@lear.org', { capabilities: { linkifier_url_template: true } });
    const ids = await listIds();
    const wanted = [ids[ids.length - 1], ...ids.slice(0, -1)];
    expectSuccess(await patchOrder('iago@zulip.com', wanted));
    const events = await capable.drain();
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('realm_linkifiers');
    expect(events[0].realm_linkifiers.map((l: { id: number }) => l.id)).toEqual(wanted);
    expect(events[0].realm_linkifiers[1]).toEqual({ id: wanted[1], pattern: expect.any(String), url_template: expect.any(String) });
    expect(await legacy.drain()).toEqual([]);
    expect(await other.drain()).toEqual([]);
  });
});
