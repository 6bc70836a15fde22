// Every conditional write under concurrent requests (issue 13): N racing requests through the
// handlers, each answer a success or the documented 4xx for the state the race left, and the
// stored state equal to what one of the winners wrote. A lost race is never a 500.
import { handler as deleteDraft } from '../../functions/drafts/delete';
import { handler as updateDraft } from '../../functions/drafts/update';
import { handler as deleteQueue } from '../../functions/events/delete';
import { handler as getEvents } from '../../functions/events/get';
import { handler as createInvite } from '../../functions/invites/create-multiuse';
import { handler as revokeInvite } from '../../functions/invites/revoke-multiuse';
import { handler as createLinkifier } from '../../functions/linkifiers/create';
import { handler as deleteLinkifier } from '../../functions/linkifiers/delete';
import { handler as updateLinkifier } from '../../functions/linkifiers/update';
import { handler as updatePresence } from '../../functions/presence/update';
import { handler as updateProfileData } from '../../functions/profile-data/update';
import { handler as createReminder } from '../../functions/reminders/create';
import { handler as deleteReminder } from '../../functions/reminders/delete';
import * as fieldsStore from '../../lib/store/custom-profile-fields';
import * as draftsStore from '../../lib/store/drafts';
import * as invitesStore from '../../lib/store/invites';
import * as linkifiersStore from '../../lib/store/linkifiers';
import * as presenceStore from '../../lib/store/presence';
import * as groupsStore from '../../lib/store/user-groups';
import { call, type ApiResult } from '../helpers/api';
import { openQueue } from '../helpers/events';
import { listIds, patchOrder } from './linkifiers/helpers';
import { createGroup, deactivateGroup, patchGroup, storedGroup } from './user-groups/helpers';

const N = 12;
const HAMLET = 10;
const IAGO = 11;

/** Runs `count` requests at once. */
const race = (count: number, request: (i: number) => Promise<ApiResult>): Promise<ApiResult[]> =>
  Promise.all(Array.from({ length: count }, (_, i) => request(i)));

/** Every answer is a success or one of the given errors; returns the indexes of the successes. */
const expectOutcomes = (results: ApiResult[], allowedErrors: { status: number; msg: string; code: string }[] = []): number[] => {
  for (const r of results) {
    if (r.body.result === 'success') expect(r.status).toBe(200);
    else expect(allowedErrors).toContainEqual({ status: r.status, msg: r.body.msg, code: r.body.code });
  }
  return results.flatMap((r, i) => (r.body.result === 'success' ? [i] : []));
};

const storedLinkifiers = async () => (await linkifiersStore.readLinkifierList(2, { consistent: true })).linkifiers;
const linkifierPath = (id: number) => ({ path: `/realm/filters/${id}`, pathParameters: { filter_id: String(id) } });

describe('linkifier list writes', () => {
  it('answers success to each of 30 concurrent reorders and keeps one of the requested orders', async () => {
    const ids = await listIds();
    // Every request a valid permutation of the current ids, as in the report.
    const orders = Array.from({ length: 30 }, (_, i) => {
      const order = [...ids];
      for (let k = order.length - 1; k > 0; k -= 1) {
        const j = (i * 7 + k * 3) % (k + 1);
        [order[k], order[j]] = [order[j], order[k]];
      }
      return order;
    });
    const results = await race(30, (i) => patchOrder('iago@zulip.com', orders[i]));
    expect(expectOutcomes(results)).toHaveLength(30);
    expect(orders).toContainEqual(await listIds());
  });

  it('creates every one of N concurrent linkifiers, each once', async () => {
    const before = await storedLinkifiers();
    const results = await race(N, (i) =>
      call(createLinkifier, {
        method: 'POST',
        path: '/realm/filters',
        as: 'iago@zulip.com',
        params: { pattern: `race-${i}-(?P<id>\\d+)`, url_template: 'https://example.com/{id}' },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
    const after = await storedLinkifiers();
    expect(after).toHaveLength(before.length + N);
    expect(new Set(after.map((l) => l.order)).size).toBe(after.length);
  });

  it('applies every one of N concurrent edits of one linkifier and keeps one of them', async () => {
    const [target] = await listIds();
    const results = await race(N, (i) =>
      call(updateLinkifier, {
        method: 'PATCH',
        ...linkifierPath(target),
        routeKey: 'PATCH /realm/filters/{filter_id}',
        as: 'iago@zulip.com',
        params: { pattern: `edit-${i}-(?P<id>\\d+)`, url_template: `https://example.com/${i}/{id}` },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
    const stored = (await storedLinkifiers()).find((l) => l.id === target)!;
    const winner = Number(/^edit-(\d+)-/.exec(stored.pattern)![1]);
    expect(stored.urlTemplate).toBe(`https://example.com/${winner}/{id}`);
  });

  it('deletes a linkifier once when N requests delete it at once; the others are told it is gone', async () => {
    const [target] = await listIds();
    const results = await race(N, () =>
      call(deleteLinkifier, {
        method: 'DELETE',
        ...linkifierPath(target),
        routeKey: 'DELETE /realm/filters/{filter_id}',
        as: 'iago@zulip.com',
      }),
    );
    expect(expectOutcomes(results, [{ status: 400, msg: 'Linkifier not found.', code: 'BAD_REQUEST' }])).toHaveLength(1);
    expect((await storedLinkifiers()).some((l) => l.id === target)).toBe(false);
  });
});

describe('user group writes', () => {
  it('applies every one of N concurrent renames of one group and leaves only the final name taken', async () => {
    const { group_id: id } = (await createGroup('iago@zulip.com', { name: 'rename-race' })).body;
    const results = await race(N, (i) => patchGroup('iago@zulip.com', id, { name: `rename-race-${i}` }));
    const winners = expectOutcomes(results);
    expect(winners).toHaveLength(N);
    const { name } = (await storedGroup(id))!;
    expect(Array.from({ length: N }, (_, i) => `rename-race-${i}`)).toContain(name);
    // No other name stays locked: a new group may take any name the losers had held.
    for (let i = 0; i < N; i += 1) {
      if (`rename-race-${i}` === name) continue;
      expect((await createGroup('iago@zulip.com', { name: `rename-race-${i}` })).body.result).toBe('success');
    }
    expect((await createGroup('iago@zulip.com', { name })).body.msg).toBe(`User group '${name}' already exists.`);
  });

  it('creates one group when N requests create the same name at once', async () => {
    const results = await race(N, () => createGroup('iago@zulip.com', { name: 'create-race' }));
    expect(expectOutcomes(results, [{ status: 400, msg: "User group 'create-race' already exists.", code: 'BAD_REQUEST' }])).toHaveLength(
      1,
    );
    const named = (await groupsStore.listGroupsOfRealm(2, { consistent: true })).filter((g) => g.name === 'create-race');
    expect(named).toHaveLength(1);
  });

  it('creates every one of N concurrent groups that use the same group in a setting', async () => {
    const { group_id: used } = (await createGroup('iago@zulip.com', { name: 'used-by-racers' })).body;
    const results = await race(N, (i) => createGroup('iago@zulip.com', { name: `user-${i}`, can_mention_group: used }));
    expect(expectOutcomes(results)).toHaveLength(N);
  });

  it('deactivates a group once when N requests deactivate it at once', async () => {
    const { group_id: id } = (await createGroup('iago@zulip.com', { name: 'deactivate-race' })).body;
    const results = await race(N, () => deactivateGroup('iago@zulip.com', id));
    expect(expectOutcomes(results, [{ status: 400, msg: 'User group is deactivated.', code: 'BAD_REQUEST' }])).toHaveLength(1);
    expect((await storedGroup(id))!.deactivated).toBe(true);
  });
});

describe('per-user writes', () => {
  it('stores one of N concurrent values of a profile field', async () => {
    const results = await race(N, (i) =>
      call(updateProfileData, {
        method: 'PATCH',
        path: '/users/me/profile_data',
        as: 'hamlet@zulip.com',
        params: { data: [{ id: 1, value: `value ${i}` }] },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
    const [stored] = await fieldsStore.getValues(HAMLET, [1]);
    expect(Array.from({ length: N }, (_, i) => `value ${i}`)).toContain(stored.value);
  });

  it('answers every one of N concurrent presence reports and keeps one row', async () => {
    const results = await race(N, (i) =>
      call(updatePresence, {
        method: 'POST',
        path: '/users/me/presence',
        as: 'iago@zulip.com',
        params: { status: i % 2 ? 'idle' : 'active' },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
    expect((await presenceStore.getWithSequence(2, IAGO)).presence?.userId).toBe(IAGO);
  });

  it('deletes a draft once when N requests delete it at once', async () => {
    await draftsStore.createDrafts([{ id: 9001, userId: HAMLET, type: '', to: [], topic: '', content: 'race', timestamp: 1700000000 }]);
    const results = await race(N, () =>
      call(deleteDraft, { method: 'DELETE', path: '/drafts/9001', pathParameters: { draft_id: '9001' }, as: 'hamlet@zulip.com' }),
    );
    expect(expectOutcomes(results, [{ status: 404, msg: 'Draft does not exist', code: 'BAD_REQUEST' }])).toHaveLength(1);
    expect(await draftsStore.getDraft(HAMLET, 9001)).toBeUndefined();
  });

  it('keeps one of N concurrent edits of a draft', async () => {
    await draftsStore.createDrafts([{ id: 9002, userId: HAMLET, type: '', to: [], topic: '', content: 'race', timestamp: 1700000000 }]);
    const results = await race(N, (i) =>
      call(updateDraft, {
        method: 'PATCH',
        path: '/drafts/9002',
        pathParameters: { draft_id: '9002' },
        as: 'hamlet@zulip.com',
        params: { draft: { type: '', to: [], topic: '', content: `edit ${i}` } },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
    expect(Array.from({ length: N }, (_, i) => `edit ${i}`)).toContain((await draftsStore.getDraft(HAMLET, 9002))!.content);
  });

  it('deletes a reminder once when N requests delete it at once', async () => {
    const created = await call(createReminder, {
      method: 'POST',
      path: '/reminders',
      as: 'iago@zulip.com',
      params: { message_id: 1, scheduled_delivery_timestamp: 4102444800 },
    });
    const id = created.body.reminder_id as number;
    const results = await race(N, () =>
      call(deleteReminder, {
        method: 'DELETE',
        path: `/reminders/${id}`,
        routeKey: 'DELETE /reminders/{reminder_id}',
        pathParameters: { reminder_id: String(id) },
        as: 'iago@zulip.com',
      }),
    );
    expect(expectOutcomes(results, [{ status: 404, msg: 'Reminder does not exist', code: 'BAD_REQUEST' }])).toHaveLength(1);
  });
});

describe('organization objects and queues', () => {
  it('revokes an invitation link once when N requests revoke it at once', async () => {
    const { body } = await call(createInvite, { method: 'POST', path: '/invites/multiuse', as: 'iago@zulip.com', params: {} });
    expect(body.result).toBe('success');
    const [invite] = (await invitesStore.listInvitesOfRealm(2)).sort((a, b) => b.id - a.id);
    const results = await race(N, () =>
      call(revokeInvite, {
        method: 'DELETE',
        path: `/invites/multiuse/${invite.id}`,
        routeKey: 'DELETE /invites/multiuse/{invite_id}',
        pathParameters: { invite_id: String(invite.id) },
        as: 'iago@zulip.com',
      }),
    );
    expect(expectOutcomes(results, [{ status: 400, msg: 'Invitation has already been revoked', code: 'BAD_REQUEST' }])).toHaveLength(1);
    expect((await invitesStore.listInvitesOfRealm(2)).find((i) => i.id === invite.id)?.status).toBe('revoked');
  });

  it('answers every one of N concurrent polls of one queue', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const results = await race(N, () =>
      call(getEvents, {
        method: 'GET',
        path: '/events',
        as: 'hamlet@zulip.com',
        params: { queue_id: queue.queueId, last_event_id: -1, dont_block: true },
      }),
    );
    expect(expectOutcomes(results)).toHaveLength(N);
  });

  it('deletes a queue once when N requests delete it at once', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const results = await race(N, () =>
      call(deleteQueue, { method: 'DELETE', path: '/events', as: 'hamlet@zulip.com', params: { queue_id: queue.queueId } }),
    );
    const gone = { status: 400, msg: `Bad event queue ID: ${queue.queueId}`, code: 'BAD_EVENT_QUEUE_ID' };
    expect(expectOutcomes(results, [gone])).toHaveLength(1);
  });
});
