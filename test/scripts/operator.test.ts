// The operator commands (npm run user-role, deactivate-user, reactivate-user, deactivate-realm,
// reactivate-realm, list-realms, user-can-create-users) through their main function, against the
// development data ('zulip': desdemona the only owner, iago an administrator, hamlet and othello
// members, default-bot owned by desdemona; 'lear': king the owner, edgar).
import { handler as fetchApiKey } from '../../functions/auth/fetch-api-key';
import { handler as me } from '../../functions/users/me';
import { handler as createUser } from '../../functions/users/create';
import { OperatorError } from '../../lib/actions/organization/operator';
import { devPassword } from '../../lib/passwords';
import * as realmsStore from '../../lib/store/realms';
import * as usersStore from '../../lib/store/users';
import { runOperatorCommand } from '../../scripts/operator';
import { call, expectError, expectSuccess } from '../helpers/api';
import * as queuesStore from '../../lib/store/event-queues';
import { openQueue } from '../helpers/events';

const run = (command: string, ...argv: string[]) => runOperatorCommand(command, argv);
const stored = async (userId: number, realmId = 2) => (await usersStore.get(realmId, userId, { consistent: true }))!;
const whoAmI = (as: string) => call(me, { method: 'GET', path: '/users/me', as });

/** Runs a command expecting its refusal, and returns the message. */
const refusal = async (command: string, ...argv: string[]): Promise<string> => {
  const error = await run(command, ...argv).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperatorError);
  return (error as OperatorError).message;
};

describe('operator commands: arguments', () => {
  it.each([
    [['no-such-command'], /^Unknown command "no-such-command": one of user-role, /],
    [['user-role', '--realm', 'zulip', '--email', 'hamlet@zulip.com'], /^Missing --role\. Usage: npm run user-role -- --realm/],
    [['user-role', '--realm', 'zulip', '--role', 'owner'], /^Missing --email\./],
    [['deactivate-user', '--realm', 'zulip', '--email'], /^Unexpected argument "--email"\./],
    [['deactivate-user', '--realm', 'zulip', '--email', 'hamlet@zulip.com', 'extra'], /^Unexpected argument "extra"\./],
    [['list-realms', '--realm', 'zulip'], /^Unexpected argument "--realm"\./],
    [
      ['user-role', '--realm', 'nowhere', '--email', 'hamlet@zulip.com', '--role', 'owner'],
      /^There is no organization with the subdomain "nowhere"/,
    ],
    [
      ['user-role', '--realm', 'zulip', '--email', 'king@lear.org', '--role', 'owner'],
      /^There is no account "king@lear\.org" in the organization "zulip"\.$/,
    ],
    [['user-role', '--realm', 'zulip', '--email', 'hamlet@zulip.com', '--role', 'king'], /^Unknown role "king": use one of owner, admin, /],
  ])('refuses %j, changing nothing', async (argv, message) => {
    const [command, ...rest] = argv;
    expect(await refusal(command, ...rest)).toMatch(message);
    expect((await stored(10)).role).toBe(400);
    expect((await stored(20, 3)).role).toBe(100);
  });
});

describe('npm run user-role', () => {
  it('makes a member an owner: the organization is told, as for PATCH /users/{id}', async () => {
    const othello = await openQueue('othello@zulip.com');
    expect(await run('user-role', '--realm', 'zulip', '--email', 'HAMLET@zulip.com', '--role', 'owner')).toEqual([
      'hamlet@zulip.com is now owner of zulip (was member).',
    ]);
    expect((await stored(10)).role).toBe(100);
    expect((await othello.drain())[0]).toEqual({ type: 'realm_user', op: 'update', person: { user_id: 10, role: 100 } });
  });

  it('says when the user already has the role', async () => {
    expect(await run('user-role', '--realm', 'zulip', '--email', 'hamlet@zulip.com', '--role', 'owner')).toEqual([
      'hamlet@zulip.com is already owner of zulip; nothing changed.',
    ]);
  });

  it('lets the owner step down once there is another', async () => {
    expect(await run('user-role', '--realm', 'zulip', '--email', 'hamlet@zulip.com', '--role', 'member')).toEqual([
      'hamlet@zulip.com is now member of zulip (was owner).',
    ]);
  });

  it("refuses to take the role from the organization's only owner", async () => {
    expect(await refusal('user-role', '--realm', 'lear', '--email', 'king@lear.org', '--role', 'admin')).toBe(
      'king@lear.org is the only owner of lear: make someone else owner first.',
    );
    expect((await stored(20, 3)).role).toBe(100);
  });
});

describe('npm run user-can-create-users', () => {
  it('lets an administrator create users through POST /users, and takes it back', async () => {
    const params = { email: 'newcomer@zulip.com', password: 'a-long-password', full_name: 'New Comer' };
    expectError(
      await call(createUser, { method: 'POST', path: '/users', as: 'iago@zulip.com', params }),
      'User not authorized to create users',
    );
    expect(await run('user-can-create-users', '--realm', 'zulip', '--email', 'iago@zulip.com')).toEqual([
      'iago@zulip.com may now create users in zulip.',
    ]);
    expectSuccess(await call(createUser, { method: 'POST', path: '/users', as: 'iago@zulip.com', params }));
    expect(await run('user-can-create-users', '--realm', 'zulip', '--email', 'iago@zulip.com', '--revoke')).toEqual([
      'iago@zulip.com may no longer create users in zulip.',
    ]);
    expect((await stored(11)).canCreateUsers).toBe(false);
    expect(await run('user-can-create-users', '--realm', 'zulip', '--email', 'iago@zulip.com', '--revoke')).toEqual([
      'iago@zulip.com already may not create users in zulip; nothing changed.',
    ]);
  });
});

describe('npm run deactivate-user and reactivate-user', () => {
  it("deactivates a user: their key is refused, their bots are deactivated, and it's undone by reactivate-user", async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    const desdemonasQueue = await openQueue('desdemona@zulip.com');
    await run('user-role', '--realm', 'zulip', '--email', 'othello@zulip.com', '--role', 'owner');
    expect(await run('deactivate-user', '--realm', 'zulip', '--email', 'desdemona@zulip.com')).toEqual([
      'Deactivated desdemona@zulip.com in zulip.',
    ]);
    expectError(await whoAmI('desdemona@zulip.com'), 'Account is deactivated', 401, 'USER_DEACTIVATED');
    // Her event queue ended with her account (upstream deletes a deactivated user's queues).
    expect(await queuesStore.get(desdemonasQueue.queueId)).toBeUndefined();
    expect((await stored(16)).isActive).toBe(false);
    const events = await hamlet.drain();
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 9, is_active: false } });
    expect(events).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 16, is_active: false } });

    expect(await refusal('deactivate-user', '--realm', 'zulip', '--email', 'desdemona@zulip.com')).toBe(
      'desdemona@zulip.com is already deactivated.',
    );
    expect(await run('reactivate-user', '--realm', 'zulip', '--email', 'desdemona@zulip.com')).toEqual([
      'Reactivated desdemona@zulip.com in zulip.',
    ]);
    expectSuccess(await whoAmI('desdemona@zulip.com'));
    expect(await hamlet.drain()).toContainEqual({ type: 'realm_user', op: 'update', person: { user_id: 9, is_active: true } });
    expect(await refusal('reactivate-user', '--realm', 'zulip', '--email', 'desdemona@zulip.com')).toBe(
      'desdemona@zulip.com is already active.',
    );
  });

  it("refuses to deactivate the organization's only owner", async () => {
    expect(await refusal('deactivate-user', '--realm', 'lear', '--email', 'king@lear.org')).toBe(
      'king@lear.org is the only owner of lear: make someone else owner first.',
    );
    expect((await stored(20, 3)).isActive).toBe(true);
  });
});

describe('npm run deactivate-realm, reactivate-realm and list-realms', () => {
  it('lists the organizations', async () => {
    const lines = await run('list-realms');
    expect(lines[0]).toBe('id\tsubdomain\tstate\turl\tname');
    expect(lines).toContainEqual(expect.stringMatching(/^2\tzulip\tactive\thttp:\/\/localhost:3000\t/));
    expect(lines).toContainEqual(expect.stringMatching(/^3\tlear\tactive\thttp:\/\/lear\.localhost:3000\t/));
  });

  it("deactivates an organization: its users' requests are refused until it is reactivated", async () => {
    expect(await run('deactivate-realm', '--realm', 'lear')).toEqual(['Deactivated the organization lear (http://lear.localhost:3000).']);
    expect((await realmsStore.get(3, { consistent: true }))!.deactivated).toBe(true);
    expectError(await whoAmI('king@lear.org'), 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
    // Nor does the password get a key.
    const fetchKey = await call(fetchApiKey, {
      method: 'POST',
      path: '/fetch_api_key',
      headers: { host: 'lear.localhost:3000' },
      params: { username: 'king@lear.org', password: devPassword('king@lear.org') },
    });
    expectError(fetchKey, 'This organization has been deactivated', 401, 'REALM_DEACTIVATED');
    // Other organizations go on.
    expectSuccess(await whoAmI('hamlet@zulip.com'));
    expect(await run('list-realms')).toContainEqual(expect.stringMatching(/^3\tlear\tdeactivated\t/));
    expect(await refusal('deactivate-realm', '--realm', 'lear')).toBe('The organization lear is already deactivated.');

    expect(await run('reactivate-realm', '--realm', 'lear')).toEqual(['Reactivated the organization lear (http://lear.localhost:3000).']);
    expectSuccess(await whoAmI('king@lear.org'));
    expect(await refusal('reactivate-realm', '--realm', 'lear')).toBe('The organization lear is already active.');
  });
});
