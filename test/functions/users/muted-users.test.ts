// POST and DELETE /users/me/muted_users/{muted_user_id}, and register's muted_users. Upstream:
// zerver/tests/test_muted_users.py. Development data: Zoe (7), Cordelia (8), Desdemona (9),
// Hamlet (10), Iago (11), Othello (12), Polonius (13, a guest in Verona only), Prospero (14), Shiva
// (15), Default Bot (16), Former (18, deactivated), King Lear (20, another organization),
// Notification Bot (1, a system bot). Iago's unread messages: 7, 10, 13 by Othello, 14 by Cordelia,
// 6, 8, 11 by Hamlet, 9 by Zoe; Hamlet's: 12 by Iago, 13 by Othello.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as register } from '../../../functions/events/register';
import { handler as muteHandler } from '../../../functions/users/mute';
import { handler as unmuteHandler } from '../../../functions/users/unmute';
import { freezeClock, resetClock } from '../../../lib/clock';
import { MAX_MUTED_USERS, MAX_MUTERS } from '../../../lib/models/muted-user';
import { documentClient, tableName } from '../../../lib/store/client';
import { keys } from '../../../lib/store/keys';
import { getUserMessagesByIds } from '../../../lib/store/messages';
import * as mutedUsersStore from '../../../lib/store/muted-users';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';

const path = (id: number | string) => `/users/me/muted_users/${id}`;
const mute = (as: string, id: number | string) =>
  call(muteHandler, {
    method: 'POST',
    path: path(id),
    routeKey: 'POST /users/me/muted_users/{muted_user_id}',
    pathParameters: { muted_user_id: String(id) },
    as,
  });
const unmute = (as: string, id: number | string) =>
  call(unmuteHandler, {
    method: 'DELETE',
    path: path(id),
    routeKey: 'DELETE /users/me/muted_users/{muted_user_id}',
    pathParameters: { muted_user_id: String(id) },
    as,
  });

const registerMutedUsers = async (as: string, fetch: string[] = ['muted_users']) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: fetch } }));

/** What is stored of a user's mutes: the mute items, the muter's count and the muted users' muters. */
const storedMutes = async (userId: number) =>
  (await mutedUsersStore.listMutedUsersOfUser(userId, { consistent: true })).map((m) => m.mutedUserId);
const user = async (id: number, realmId = 2) => (await usersStore.get(realmId, id, { consistent: true }))!;

afterEach(() => resetClock());

describe('POST /users/me/muted_users/{muted_user_id}', () => {
  it('mutes a user at the current time, and tells only the muter', async () => {
    const iago = await openQueue('iago@zulip.com');
    const prospero = await openQueue('prospero@zulip.com');
    freezeClock(Date.UTC(2021, 0, 1) + 250);
    expect(expectSuccess(await mute('iago@zulip.com', 14))).toEqual({ result: 'success', msg: '' });
    const timestamp = Date.UTC(2021, 0, 1) / 1000;
    expect(await iago.drain()).toEqual([{ type: 'muted_users', muted_users: [{ id: 14, timestamp }] }]);
    expect(await prospero.drain()).toEqual([]);
    expect(await mutedUsersStore.listMutedUsersOfUser(11, { consistent: true })).toEqual([
      { userId: 11, mutedUserId: 14, mutedAt: timestamp },
    ]);
    expect((await user(14)).mutedBy).toEqual([11]);
    expect((await user(11)).mutedCount).toBe(1);
    expect((await registerMutedUsers('iago@zulip.com')).muted_users).toEqual([{ id: 14, timestamp }]);
    expectSuccess(await unmute('iago@zulip.com', 14));
  });

  it('sends the whole list in each muted_users event, the newest mute included', async () => {
    const queue = await openQueue('desdemona@zulip.com');
    freezeClock(Date.UTC(2022, 0, 1));
    expectSuccess(await mute('desdemona@zulip.com', 15));
    freezeClock(Date.UTC(2022, 0, 2));
    expectSuccess(await mute('desdemona@zulip.com', 6));
    const first = { id: 15, timestamp: Date.UTC(2022, 0, 1) / 1000 };
    const second = { id: 6, timestamp: Date.UTC(2022, 0, 2) / 1000 };
    expect(await queue.drain()).toEqual([
      { type: 'muted_users', muted_users: [first] },
      { type: 'muted_users', muted_users: [second, first] },
    ]);
    // The mutes' times are set; the rest runs on the real clock. On a frozen one a stream-head reading
    // taken before a poll looks as new as the poll (lib/events/wait.ts compares their times), and a
    // drain on a loaded machine once missed the unmutes' events.
    resetClock();
    expectSuccess(await unmute('desdemona@zulip.com', 15));
    expectSuccess(await unmute('desdemona@zulip.com', 6));
    expect(await queue.drain()).toEqual([
      { type: 'muted_users', muted_users: [second] },
      { type: 'muted_users', muted_users: [] },
    ]);
  });

  it("marks the muted user's unread messages to the muter read, with one update_message_flags event", async () => {
    const iago = await openQueue('iago@zulip.com');
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await mute('iago@zulip.com', 12));
    const [flags, muted] = await iago.drain();
    expect(flags).toEqual({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [7, 10, 13], all: false });
    expect(muted).toMatchObject({ type: 'muted_users' });
    const iagoRows = new Map((await getUserMessagesByIds(11, [7, 10, 13, 14])).map((r) => [r.messageId, r.flags.includes('read')]));
    expect(Object.fromEntries(iagoRows)).toEqual({ 7: true, 10: true, 13: true, 14: false });
    // Othello's message stays unread for Hamlet, who did not mute him.
    expect((await getUserMessagesByIds(10, [13]))[0].flags).not.toContain('read');
    expect(await hamlet.drain()).toEqual([]);
    expectSuccess(await unmute('iago@zulip.com', 12));
  });

  it('refuses to mute oneself, and changes nothing', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await mute('hamlet@zulip.com', 10), 'Cannot mute self');
    expect(await storedMutes(10)).toEqual([]);
    expect((await user(10)).mutedBy).toBeUndefined();
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['an id of no user', 999999],
    ["another organization's user", 20],
    ['a system bot, which belongs to no organization', 1],
  ])('answers "No such user" for %s, and changes nothing', async (_, id) => {
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await mute('hamlet@zulip.com', id), 'No such user');
    expectError(await unmute('hamlet@zulip.com', id), 'No such user');
    expect(await storedMutes(10)).toEqual([]);
    expect((await user(10)).mutedCount ?? 0).toBe(0);
    expect(await queue.drain()).toEqual([]);
  });

  it('answers 404 for a path id that is not a number', async () => {
    expectError(await mute('hamlet@zulip.com', 'cordelia'), 'Not Found', 404);
  });

  it('refuses to mute a user twice, keeping the first mute and sending nothing', async () => {
    freezeClock(Date.UTC(2023, 0, 1));
    expectSuccess(await mute('othello@zulip.com', 15));
    resetClock();
    const queue = await openQueue('othello@zulip.com');
    expectError(await mute('othello@zulip.com', 15), 'User already muted');
    expect(await mutedUsersStore.listMutedUsersOfUser(12, { consistent: true })).toEqual([
      { userId: 12, mutedUserId: 15, mutedAt: Date.UTC(2023, 0, 1) / 1000 },
    ]);
    expect((await user(12)).mutedCount).toBe(1);
    expect((await user(15)).mutedBy).toEqual([12]);
    expect(await queue.drain()).toEqual([]);
    expectSuccess(await unmute('othello@zulip.com', 15));
  });

  it('mutes and unmutes a bot and a deactivated user', async () => {
    for (const id of [16, 18]) {
      expectSuccess(await mute('desdemona@zulip.com', id));
      expect((await user(id)).mutedBy).toEqual([9]);
    }
    expect(await storedMutes(9)).toEqual([16, 18]);
    for (const id of [16, 18]) expectSuccess(await unmute('desdemona@zulip.com', id));
    expect(await storedMutes(9)).toEqual([]);
    expect((await user(16)).mutedBy).toBeUndefined();
    expect((await user(9)).mutedCount).toBe(0);
  });

  it('lets concurrent mutes of one user by one muter succeed once', async () => {
    const results = await Promise.all([mute('shiva@zulip.com', 8), mute('shiva@zulip.com', 8), mute('shiva@zulip.com', 8)]);
    expect(results.map((r) => r.body.msg).sort()).toEqual(['', 'User already muted', 'User already muted']);
    expect(await storedMutes(15)).toEqual([8]);
    expect((await user(15)).mutedCount).toBe(1);
    expectSuccess(await unmute('shiva@zulip.com', 8));
  });

  it('counts concurrent mutes of different users by one muter, and concurrent muters of one user', async () => {
    await Promise.all(
      [mute('shiva@zulip.com', 6), mute('shiva@zulip.com', 7), mute('prospero@zulip.com', 6)].map(async (r) => expectSuccess(await r)),
    );
    expect(await storedMutes(15)).toEqual([6, 7]);
    expect((await user(15)).mutedCount).toBe(2);
    expect((await user(6)).mutedBy).toEqual([14, 15]);
    await Promise.all(
      [unmute('shiva@zulip.com', 6), unmute('shiva@zulip.com', 7), unmute('prospero@zulip.com', 6)].map(async (r) =>
        expectSuccess(await r),
      ),
    );
    expect((await user(6)).mutedBy).toBeUndefined();
    expect((await user(15)).mutedCount).toBe(0);
  });

  describe('when guests may see only the users they share a channel or a conversation with', () => {
    limitGuestsToAccessibleUsers();

    it('refuses a guest a user it cannot see ("Insufficient permission"), and lets it mute one it can', async () => {
      expectError(await mute('polonius@zulip.com', 18), 'Insufficient permission');
      expectError(await unmute('polonius@zulip.com', 18), 'Insufficient permission');
      expect(await storedMutes(13)).toEqual([]);
      expectSuccess(await mute('polonius@zulip.com', 8));
      expectSuccess(await unmute('polonius@zulip.com', 8));
    });
  });

  describe("this service's caps", () => {
    const setAttribute = (userId: number, attribute: string, value: unknown) =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName('main'),
          Key: keys.user(2, userId),
          UpdateExpression: value === undefined ? 'REMOVE #a' : 'SET #a = :v',
          ExpressionAttributeNames: { '#a': attribute },
          ...(value === undefined ? {} : { ExpressionAttributeValues: { ':v': value } }),
        }),
      );

    it(`refuses a user's mute past ${MAX_MUTED_USERS} mutes, and changes nothing`, async () => {
      await setAttribute(8, 'mutedCount', MAX_MUTED_USERS);
      try {
        expectError(await mute('cordelia@zulip.com', 6), `You cannot mute more than ${MAX_MUTED_USERS} users.`);
        expect(await storedMutes(8)).toEqual([]);
        expect((await user(6)).mutedBy).toBeUndefined();
        expect((await user(8)).mutedCount).toBe(MAX_MUTED_USERS);
      } finally {
        await setAttribute(8, 'mutedCount', undefined);
      }
    });

    it(`refuses to mute a user who has ${MAX_MUTERS} muters, and changes nothing`, async () => {
      const muters = new Set(Array.from({ length: MAX_MUTERS }, (_, i) => 100000 + i));
      await setAttribute(6, 'mutedBy', muters);
      try {
        expectError(await mute('prospero@zulip.com', 6), `This user cannot be muted by more than ${MAX_MUTERS} users.`);
        expect(await storedMutes(14)).toEqual([]);
        expect((await user(14)).mutedCount ?? 0).toBe(0);
        expect((await user(6)).mutedBy).toHaveLength(MAX_MUTERS);
      } finally {
        await setAttribute(6, 'mutedBy', undefined);
      }
    });
  });
});

describe('DELETE /users/me/muted_users/{muted_user_id}', () => {
  it('unmutes a user and sends the muter the list without them', async () => {
    expectSuccess(await mute('hamlet@zulip.com', 7));
    const queue = await openQueue('hamlet@zulip.com');
    const zoe = await openQueue('ZOE@zulip.com');
    expect(expectSuccess(await unmute('hamlet@zulip.com', 7))).toEqual({ result: 'success', msg: '' });
    expect(await queue.drain()).toEqual([{ type: 'muted_users', muted_users: [] }]);
    expect(await zoe.drain()).toEqual([]);
    expect(await storedMutes(10)).toEqual([]);
    expect((await user(7)).mutedBy).toBeUndefined();
    expect((await user(10)).mutedCount).toBe(0);
    expect((await registerMutedUsers('hamlet@zulip.com')).muted_users).toEqual([]);
  });

  it('answers "User is not muted" for a user not muted, and for oneself, changing nothing', async () => {
    expectSuccess(await mute('hamlet@zulip.com', 6));
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await unmute('hamlet@zulip.com', 8), 'User is not muted');
    expectError(await unmute('hamlet@zulip.com', 10), 'User is not muted');
    expect(await storedMutes(10)).toEqual([6]);
    expect((await user(10)).mutedCount).toBe(1);
    expect(await queue.drain()).toEqual([]);
    expectSuccess(await unmute('hamlet@zulip.com', 6));
  });

  it("does not remove another user's mute of the same user", async () => {
    expectSuccess(await mute('hamlet@zulip.com', 14));
    expectError(await unmute('othello@zulip.com', 14), 'User is not muted');
    expect(await storedMutes(10)).toEqual([14]);
    expect((await user(14)).mutedBy).toEqual([10]);
    expectSuccess(await unmute('hamlet@zulip.com', 14));
  });
});

describe('POST /register muted_users', () => {
  it('is present when asked for, and absent otherwise', async () => {
    expect(await registerMutedUsers('cordelia@zulip.com')).toMatchObject({ muted_users: [] });
    expect(await registerMutedUsers('cordelia@zulip.com', ['realm_user'])).not.toHaveProperty('muted_users');
  });
});
