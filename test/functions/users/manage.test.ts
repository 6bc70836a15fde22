// PATCH /users/{user_id}, DELETE /users/{user_id}, POST /users/{user_id}/reactivate, DELETE
// /users/me and POST /users/me/api_key/regenerate, against the development data ('zulip':
// desdemona 9 the only owner, iago 11 an administrator, shiva 15 a moderator, hamlet 10, othello
// 12 and ZOE 7 members, ZOE owning webhook-bot 17, polonius 13 a guest, former 18 deactivated;
// 'lear': king 20 the owner, edgar 21).
import { handler as deactivateOwn } from '../../../functions/users/deactivate-own';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as deactivate } from '../../../functions/users/deactivate';
import { handler as me } from '../../../functions/users/me';
import { handler as reactivate } from '../../../functions/users/reactivate';
import { handler as regenerate } from '../../../functions/users/regenerate-api-key';
import { handler as update } from '../../../functions/users/update';
import * as channelsStore from '../../../lib/store/channels';
import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import * as groupsStore from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { queryPrefix } from '../../../lib/store/common';
import * as queuesStore from '../../../lib/store/event-queues';
import { eventKeys } from '../../../lib/store/keys';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const byId = (userId: number | string) => ({ routeKey: '', pathParameters: { user_id_or_email: String(userId) } });
const patch = (as: string, userId: number | string, params: Record<string, unknown>) =>
  call(update, { method: 'PATCH', path: `/users/${userId}`, ...byId(userId), routeKey: 'PATCH /users/{user_id_or_email}', as, params });
const del = (as: string, userId: number | string) =>
  call(deactivate, { method: 'DELETE', path: `/users/${userId}`, ...byId(userId), routeKey: 'DELETE /users/{user_id_or_email}', as });
const revive = (as: string, userId: number) =>
  call(reactivate, {
    method: 'POST',
    path: `/users/${userId}/reactivate`,
    ...byId(userId),
    routeKey: 'POST /users/{user_id_or_email}/reactivate',
    as,
  });
const delMe = (as: string) => call(deactivateOwn, { method: 'DELETE', path: '/users/me', as });
const stored = async (userId: number, realmId = 2) => (await usersStore.get(realmId, userId, { consistent: true }))!;
const groupNamed = async (name: string) => (await groupsStore.listGroupsOfRealm(2, { consistent: true })).find((g) => g.name === name)!;

describe('PATCH /users/{user_id}', () => {
  it('refuses a member changing another user with "Insufficient permission" and changes nothing', async () => {
    expectError(await patch('hamlet@zulip.com', 12, { full_name: 'Othello Renamed' }), 'Insufficient permission');
    expect((await stored(12)).fullName).toBe('Othello, the Moor of Venice');
  });

  it.each([
    ['an unknown id', 999999],
    ["another organization's user", 20],
  ])('answers "No such user" for %s', async (_what, id) => {
    expectError(await patch('iago@zulip.com', id, { full_name: 'Nobody Here' }), 'No such user');
    expect((await stored(20, 3)).fullName).toBe('King Lear');
  });

  it('refuses an administrator making an owner with "Must be an organization owner"', async () => {
    expectError(await patch('iago@zulip.com', 12, { role: 100 }), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored(12)).role).toBe(400);
  });

  it('refuses an administrator demoting the owner with "Must be an organization owner"', async () => {
    expectError(await patch('iago@zulip.com', 9, { role: 400 }), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored(9)).role).toBe(100);
  });

  it('keeps the only owner an owner', async () => {
    expectError(
      await patch('desdemona@zulip.com', 9, { role: 200 }),
      'The owner permission cannot be removed from the only organization owner.',
    );
    expect((await stored(9)).role).toBe(100);
  });

  it("refuses a role that is none of upstream's", async () => {
    expectError(await patch('iago@zulip.com', 12, { role: 500 }), 'Invalid role: Value error, Not in the list of possible values');
    expect((await stored(12)).role).toBe(400);
  });

  it.each([
    ['Name too long!', 'n'.repeat(101)],
    ['Name too short!', 'x'],
    ['Invalid characters in name!', 'Othello @ Venice'],
  ])('answers "%s" and keeps the name', async (msg, name) => {
    expectError(await patch('iago@zulip.com', 12, { full_name: name }), msg);
    expect((await stored(12)).fullName).toBe('Othello, the Moor of Venice');
  });

  it('renames a user: the organization is told, and mentions find the new name only', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 12, { full_name: '  Othello Renamed ' }));
    expect((await stored(12)).fullName).toBe('Othello Renamed');
    expect(await hamlet.drain()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: 12, full_name: 'Othello Renamed' } }]);
    expect((await usersStore.listByFullNames(2, ['othello renamed'], 2)).map((u) => u.id)).toEqual([12]);
    expect(await usersStore.listByFullNames(2, ['Othello, the Moor of Venice'], 2)).toEqual([]);
  });

  it('ignores a blank name and the same name', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 12, { full_name: '   ' }));
    expectSuccess(await patch('iago@zulip.com', 12, { full_name: 'Othello Renamed' }));
    expect(await hamlet.drain()).toEqual([]);
  });

  it('lets the owner make a member an administrator, moving them between the system groups', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('desdemona@zulip.com', 12, { role: 200 }));
    expect((await stored(12)).role).toBe(200);
    const [members, full, admins] = await Promise.all([
      groupNamed('role:members'),
      groupNamed('role:fullmembers'),
      groupNamed('role:administrators'),
    ]);
    expect(members.members).not.toContain(12);
    expect(full.members).not.toContain(12);
    expect(admins.members).toContain(12);
    expect(await hamlet.drain()).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: 12, role: 200 } },
      { type: 'user_group', op: 'remove_members', group_id: members.id, user_ids: [12] },
      { type: 'user_group', op: 'remove_members', group_id: full.id, user_ids: [12] },
      { type: 'user_group', op: 'add_members', group_id: admins.id, user_ids: [12] },
    ]);
  });

  it('lets the owner make another owner, after which the first owner may step down', async () => {
    expectSuccess(await patch('desdemona@zulip.com', 12, { role: 100 }));
    expectSuccess(await patch('othello@zulip.com', 9, { role: 200 }));
    expect((await stored(9)).role).toBe(200);
    expectSuccess(await patch('othello@zulip.com', 9, { role: 100 }));
    expectSuccess(await patch('desdemona@zulip.com', 12, { role: 400 }));
    expect((await stored(12)).role).toBe(400);
    expect((await groupNamed('role:owners')).members).toEqual([9]);
  });
});

describe('PATCH /users/{user_id} profile_data', () => {
  const valueOf = async (userId: number, fieldId: number) => (await fieldsStore.getValues(userId, [fieldId]))[0]?.value;

  it.each([
    ['Field id 999 not found.', [{ id: 999, value: 'x' }]],
    ["'7' is not a valid choice for 'Favorite editor'.", [{ id: 4, value: '7' }]],
    ['Birthday is not a date', [{ id: 5, value: 'yesterday' }]],
  ])('answers "%s" and changes nothing, not even the valid items before it', async (msg, items) => {
    expectError(await patch('iago@zulip.com', 10, { profile_data: [{ id: 1, value: '+1-555' }, ...items] }), msg);
    expect(await valueOf(10, 1)).toBe('+0-11-23-5813');
  });

  it('sets a field the user may not edit themselves, and removes one with an empty value; the organization is told', async () => {
    const othello = await openQueue('othello@zulip.com');
    expectSuccess(
      await patch('iago@zulip.com', 10, {
        profile_data: [
          { id: 10, value: 'A-0010' },
          { id: 3, value: '' },
        ],
      }),
    );
    expect(await valueOf(10, 10)).toBe('A-0010');
    expect(await valueOf(10, 3)).toBeUndefined();
    expect(await othello.drain()).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: 10, custom_profile_field: { id: 10, value: 'A-0010', rendered_value: '<p>A-0010</p>' } },
      },
      { type: 'realm_user', op: 'update', person: { user_id: 10, custom_profile_field: { id: 3, value: null } } },
    ]);
  });
});

describe('DELETE /users/{user_id}', () => {
  it('refuses a member with "Insufficient permission" and keeps the user active', async () => {
    expectError(await del('hamlet@zulip.com', 12), 'Insufficient permission');
    expect((await stored(12)).isActive).toBe(true);
  });

  it.each([
    ['No such user', 999999],
    ['No such user', 20],
    ['No such user', 16],
    ['User is deactivated', 18],
  ])('answers "%s" for user %i', async (msg, id) => {
    expectError(await del('iago@zulip.com', id), msg);
    expect((await stored(16)).isActive).toBe(true);
  });

  it('refuses an administrator deactivating the owner with "Must be an organization owner"', async () => {
    expectError(await del('iago@zulip.com', 9), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored(9)).isActive).toBe(true);
  });

  it('refuses to deactivate the only owner', async () => {
    expectError(await del('desdemona@zulip.com', 9), 'Cannot deactivate the only organization owner');
    expect((await stored(9)).isActive).toBe(true);
  });

  it('deactivates a user and their bots: their key stops working at once, the others are told', async () => {
    const zoe = await usersStore.get(2, 7);
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await del('iago@zulip.com', 7));
    expect((await stored(7)).isActive).toBe(false);
    expect((await stored(17)).isActive).toBe(false);
    const refused = await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth(zoe!.email, zoe!.apiKey) });
    // Upstream re-raises every API-key failure as UnauthorizedError (docs: zulip-behavior.md, decorator.py).
    expectError(refused, 'Account is deactivated', 401, 'USER_DEACTIVATED');
    expect(await channelsStore.listSubscriberIdsOfChannel(3)).not.toContain(7);
    const events = await hamlet.drain();
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 7, is_active: false } });
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 17, is_active: false } });
    // Hamlet sees Verona's subscribers (he is one); ZOE leaves them.
    expect(events).toContainEqual({ type: 'subscription', op: 'peer_remove', stream_ids: [3], user_ids: [7] });
  });

  it('ends the deactivated user\'s event queue: polling it is refused with "Account is deactivated"', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(await del('iago@zulip.com', 8));
    const poll = await call(getEvents, {
      method: 'GET',
      path: '/events',
      as: 'cordelia@zulip.com',
      params: { queue_id: queue.queueId, last_event_id: -1, dont_block: true },
    });
    expectError(poll, 'Account is deactivated', 401, 'USER_DEACTIVATED');
  });

  it("deletes the deactivated user's queues: their items do not stay, and after a reactivation a poll is BAD_EVENT_QUEUE_ID", async () => {
    const [first, second] = [await openQueue('othello@zulip.com'), await openQueue('othello@zulip.com')];
    const others = await openQueue('hamlet@zulip.com');
    expect(await queuesStore.get(first.queueId)).toBeDefined();
    expectSuccess(await del('iago@zulip.com', 12));
    expect(await queuesStore.get(first.queueId)).toBeUndefined();
    expect(await queuesStore.get(second.queueId)).toBeUndefined();
    const records = eventKeys.queuesOfUser(12);
    expect(await queryPrefix('events', records.pk, records.skPrefix, { max: 10, consistent: true })).toEqual([]);
    // Another user's queue is untouched.
    expect(await queuesStore.get(others.queueId)).toBeDefined();
    expectSuccess(await revive('iago@zulip.com', 12));
    const poll = await call(getEvents, {
      method: 'GET',
      path: '/events',
      as: 'othello@zulip.com',
      params: { queue_id: first.queueId, last_event_id: -1, dont_block: true },
    });
    expect(poll.status).toBe(400);
    expect(poll.body).toEqual({
      result: 'error',
      msg: `Bad event queue ID: ${first.queueId}`,
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: first.queueId,
    });
  });

  it('keeps the queues when the deactivation is refused', async () => {
    const queue = await openQueue('desdemona@zulip.com');
    expectError(await del('desdemona@zulip.com', 9), 'Cannot deactivate the only organization owner');
    expect(await queuesStore.get(queue.queueId)).toBeDefined();
  });
});

describe('POST /users/{user_id}/reactivate', () => {
  it('refuses a member with "Insufficient permission"', async () => {
    expectError(await revive('hamlet@zulip.com', 7), 'Insufficient permission');
    expect((await stored(7)).isActive).toBe(false);
  });

  it('answers "No such user" for another organization\'s user', async () => {
    expectError(await revive('iago@zulip.com', 21), 'No such user');
  });

  it('reactivates a user: the key works again, subscriptions return, the organization is told', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await revive('iago@zulip.com', 7));
    const zoe = await stored(7);
    expect(zoe.isActive).toBe(true);
    expectSuccess(await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth(zoe.email, zoe.apiKey) }));
    expect(await channelsStore.listSubscriberIdsOfChannel(3)).toContain(7);
    const events = await hamlet.drain();
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 7, is_active: true } });
    expect(events).toContainEqual({ type: 'subscription', op: 'peer_add', stream_ids: [3], user_ids: [7] });
    // Her bot stays deactivated, as upstream.
    expect((await stored(17)).isActive).toBe(false);
  });

  it('answers "User is already active." for an active user', async () => {
    expectError(await revive('iago@zulip.com', 7), 'User is already active.');
  });

  it('reactivates a bot', async () => {
    expectSuccess(await revive('iago@zulip.com', 17));
    expect((await stored(17)).isActive).toBe(true);
  });
});

describe('DELETE /users/me', () => {
  it('refuses the only owner with CANNOT_DEACTIVATE_LAST_USER', async () => {
    const result = await delMe('desdemona@zulip.com');
    expectError(result, 'Cannot deactivate the only organization owner.', 400, 'CANNOT_DEACTIVATE_LAST_USER');
    expect(result.body).toMatchObject({ is_last_owner: true, entity: 'organization owner' });
    expect((await stored(9)).isActive).toBe(true);
  });

  it('deactivates a member', async () => {
    expectSuccess(await delMe('edgar@lear.org'));
    expect((await stored(21, 3)).isActive).toBe(false);
  });

  it('refuses the only active user of an organization', async () => {
    const result = await delMe('king@lear.org');
    expectError(result, 'Cannot deactivate the only user.', 400, 'CANNOT_DEACTIVATE_LAST_USER');
    expect(result.body).toMatchObject({ is_last_owner: false, entity: 'user' });
    expect((await stored(20, 3)).isActive).toBe(true);
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it('refuses a bot with "This endpoint does not accept bot requests."', async () => {
    const bot = await stored(16);
    const result = await call(regenerate, {
      method: 'POST',
      path: '/users/me/api_key/regenerate',
      authorization: basicAuth(bot.email, bot.apiKey),
    });
    expectError(result, 'This endpoint does not accept bot requests.');
    expect((await stored(16)).apiKey).toBe(bot.apiKey);
  });

  it('replaces the key: the old one stops working at once, the new one works', async () => {
    const before = await stored(10);
    const body = expectSuccess(await call(regenerate, { method: 'POST', path: '/users/me/api_key/regenerate', as: 'hamlet@zulip.com' }));
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.api_key).not.toBe(before.apiKey);
    const old = await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth(before.email, before.apiKey) });
    expectError(old, 'Invalid API key', 401, 'UNAUTHORIZED');
    expectSuccess(await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth(before.email, body.api_key) }));
  });
});
