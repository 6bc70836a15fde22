// POST /bots, GET /bots, PATCH /bots/{bot_id}, DELETE /bots/{bot_id}, GET /bots/{bot_id}/api_key
// and POST /bots/{bot_id}/api_key/regenerate, against the development data ('zulip': desdemona 9
// the owner, iago 11 an administrator, hamlet 10, othello 12 and ZOE 7 members, polonius 13 a
// guest, former 18 deactivated, default-bot 16 owned by desdemona, webhook-bot 17 owned by ZOE;
// 'lear': king 20). Bot emails end in the default organization's host, localhost.
import { handler as register } from '../../../functions/events/register';
import { handler as createBot } from '../../../functions/bots/create';
import { handler as deactivateBot } from '../../../functions/bots/deactivate';
import { handler as getApiKey } from '../../../functions/bots/get-api-key';
import { handler as listBots } from '../../../functions/bots/list';
import { handler as regenerate } from '../../../functions/bots/regenerate-api-key';
import { handler as updateBot } from '../../../functions/bots/update';
import { handler as getUser } from '../../../functions/users/get';
import { handler as me } from '../../../functions/users/me';
import { handler as reactivateUser } from '../../../functions/users/reactivate';
import * as realmsStore from '../../../lib/store/realms';
import * as groupsStore from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const create = (as: string, params: Record<string, unknown>) => call(createBot, { method: 'POST', path: '/bots', as, params });
const onBot = (botId: number, route: string) => ({
  pathParameters: { bot_id: String(botId) },
  routeKey: route,
});
const patch = (as: string, botId: number, params: Record<string, unknown>) =>
  call(updateBot, { method: 'PATCH', path: `/bots/${botId}`, ...onBot(botId, 'PATCH /bots/{bot_id}'), as, params });
const del = (as: string, botId: number) =>
  call(deactivateBot, { method: 'DELETE', path: `/bots/${botId}`, ...onBot(botId, 'DELETE /bots/{bot_id}'), as });
const apiKeyOf = (as: string, botId: number) =>
  call(getApiKey, { method: 'GET', path: `/bots/${botId}/api_key`, ...onBot(botId, 'GET /bots/{bot_id}/api_key'), as });
const regen = (as: string, botId: number) =>
  call(regenerate, {
    method: 'POST',
    path: `/bots/${botId}/api_key/regenerate`,
    ...onBot(botId, 'POST /bots/{bot_id}/api_key/regenerate'),
    as,
  });
const stored = async (userId: number, realmId = 2) => (await usersStore.get(realmId, userId, { consistent: true }))!;
const usersOfZulip = async () => (await usersStore.listOfRealm(2)).length;

/** Sets an organization group setting to a system group, as PATCH /realm would store it. */
const setRealmGroupSetting = async (setting: string, groupName: string) => {
  const group = (await groupsStore.listGroupsOfRealm(2, { consistent: true })).find((g) => g.name === groupName)!;
  const realm = (await realmsStore.get(2, { consistent: true }))!;
  await realmsStore.put({ ...realm, groupSettings: { ...realm.groupSettings, [setting]: group.id } });
};

describe('POST /bots', () => {
  it('creates a bot owned by the caller, tells the organization and the bot administrators', async () => {
    const [othello, iago, desdemona] = await Promise.all([
      openQueue('othello@zulip.com'),
      openQueue('iago@zulip.com'),
      openQueue('desdemona@zulip.com'),
    ]);
    const body = expectSuccess(await create('hamlet@zulip.com', { full_name: 'Hamlet Helper', short_name: 'helper' }));
    const bot = await stored(body.user_id);
    expect(bot).toMatchObject({
      email: 'helper-bot@localhost',
      fullName: 'Hamlet Helper',
      isBot: true,
      botType: 1,
      botOwnerId: 10,
      role: 400,
    });
    expect(body).toEqual({
      result: 'success',
      msg: '',
      user_id: bot.id,
      api_key: bot.apiKey,
      avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    // Its key works.
    expectSuccess(
      await call(getUser, {
        method: 'GET',
        path: '/users/10',
        pathParameters: { user_id_or_email: '10' },
        routeKey: 'GET /users/{user_id_or_email}',
        headers: { authorization: basicAuth(bot.email, bot.apiKey) },
      }),
    );
    const realmBotAdd = {
      type: 'realm_bot',
      op: 'add',
      bot: {
        user_id: bot.id,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        services: [],
      },
    };
    const othelloEvents = await othello.drain();
    // realm_user add, then the system groups' add_members (no channels for a bot).
    expect(othelloEvents[0]).toMatchObject({ type: 'realm_user', op: 'add' });
    expect(new Set(othelloEvents.slice(1).map((e) => `${e.type} ${e.op}`))).toEqual(new Set(['user_group add_members']));
    expect(othelloEvents[0].person).toMatchObject({ user_id: bot.id, is_bot: true, bot_type: 1, bot_owner_id: 10 });
    // Administrators get the realm_bot event; a member who does not own the bot does not.
    expect(await iago.drain()).toContainEqual(realmBotAdd);
    expect(await desdemona.drain()).toContainEqual(realmBotAdd);
    expect(othelloEvents).not.toContainEqual(realmBotAdd);
  });

  it("shows the new bot in its owner's register realm_bots", async () => {
    const body = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm_bot'] } }),
    );
    const helper = (await usersStore.getByEmail(2, 'helper-bot@localhost'))!;
    expect(body.realm_bots).toEqual([
      {
        user_id: helper.id,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        services: [],
      },
    ]);
  });

  it.each([
    ['a blank short name', { full_name: 'Some Bot', short_name: '  ' }, 'Bad name or username'],
    ['a short name that makes no email', { full_name: 'Some Bot', short_name: 'a b' }, 'Bad name or username'],
    ['a short name too long for an email', { full_name: 'Some Bot', short_name: 'x'.repeat(300) }, 'Bad name or username'],
    ['a name too long', { full_name: 'n'.repeat(101), short_name: 'longname' }, 'Name too long!'],
    ['a name with invalid characters', { full_name: 'Bot @ Work', short_name: 'atwork' }, 'Invalid characters in name!'],
    ['an embedded bot', { full_name: 'Embedded', short_name: 'embedded', bot_type: 4 }, 'Embedded bots are not enabled.'],
    ['a taken short name', { full_name: 'Another Helper', short_name: 'helper' }, 'Username already in use'],
    ["an active user's name", { full_name: 'Iago', short_name: 'iagobot' }, 'Name is already in use.'],
    ['an unknown bot type', { full_name: 'Unknown', short_name: 'unknown', bot_type: 9 }, 'Invalid bot type'],
    ['a non-integer bot type', { full_name: 'Unknown', short_name: 'unknown', bot_type: '"x"' }, 'bot_type is not an integer'],
  ])('refuses %s and creates nothing', async (_what, params, msg) => {
    const before = await usersOfZulip();
    expectError(await create('othello@zulip.com', params), msg);
    expect(await usersOfZulip()).toBe(before);
  });

  it('refuses a missing short name', async () => {
    expectError(
      await create('othello@zulip.com', { full_name: 'Some Bot' }),
      "Missing 'short_name' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it.each([
    ['a guest', 'polonius@zulip.com', 'Not allowed for guest users'],
    ['a bot', 'default-bot@zulip.com', 'This endpoint does not accept bot requests.'],
  ])('refuses %s', async (_what, as, msg) => {
    const before = await usersOfZulip();
    expectError(await create(as, { full_name: 'Guest Bot', short_name: 'guestbot' }), msg);
    expect(await usersOfZulip()).toBe(before);
  });

  describe('with bot creation limited', () => {
    afterAll(async () => {
      await setRealmGroupSetting('can_create_bots_group', 'role:members');
      await setRealmGroupSetting('can_create_write_only_bots_group', 'role:members');
    });

    it('lets can_create_write_only_bots_group create incoming webhook bots only', async () => {
      await setRealmGroupSetting('can_create_bots_group', 'role:administrators');
      const before = await usersOfZulip();
      expectError(await create('othello@zulip.com', { full_name: 'Generic Bot', short_name: 'generic' }), 'Insufficient permission');
      expect(await usersOfZulip()).toBe(before);
      const body = expectSuccess(await create('othello@zulip.com', { full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 }));
      expect((await stored(body.user_id)).botType).toBe(2);
      // Administrators still create any type.
      expectSuccess(await create('iago@zulip.com', { full_name: 'Iago Generic', short_name: 'iagogeneric' }));
    });

    it('refuses everyone outside both groups with "Insufficient permission"', async () => {
      await setRealmGroupSetting('can_create_bots_group', 'role:administrators');
      await setRealmGroupSetting('can_create_write_only_bots_group', 'role:administrators');
      const before = await usersOfZulip();
      expectError(
        await create('othello@zulip.com', { full_name: 'Hook Two', short_name: 'hooktwo', bot_type: 2 }),
        'Insufficient permission',
      );
      expect(await usersOfZulip()).toBe(before);
    });
  });
});

describe('GET /bots', () => {
  it("lists the caller's active bots only, administrators included", async () => {
    const helper = (await usersStore.getByEmail(2, 'helper-bot@localhost'))!;
    const body = expectSuccess(await call(listBots, { method: 'GET', path: '/bots', as: 'hamlet@zulip.com' }));
    expect(body.bots).toEqual([
      {
        username: 'helper-bot@localhost',
        full_name: 'Hamlet Helper',
        api_key: helper.apiKey,
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        services: [],
      },
    ]);
    const desdemona = expectSuccess(await call(listBots, { method: 'GET', path: '/bots', as: 'desdemona@zulip.com' }));
    expect(desdemona.bots.map((b: { username: string }) => b.username)).toEqual(['default-bot@zulip.com']);
  });

  it('refuses a guest', async () => {
    expectError(await call(listBots, { method: 'GET', path: '/bots', as: 'polonius@zulip.com' }), 'Not allowed for guest users');
  });
});

describe('GET /bots/{bot_id}/api_key and POST /bots/{bot_id}/api_key/regenerate', () => {
  it("gives the owner and administrators the bot's key", async () => {
    const bot = await stored(17);
    expect(expectSuccess(await apiKeyOf('ZOE@zulip.com', 17)).api_key).toBe(bot.apiKey);
    expect(expectSuccess(await apiKeyOf('iago@zulip.com', 17)).api_key).toBe(bot.apiKey);
  });

  it.each([
    ['another member', 'othello@zulip.com', 17, 'Insufficient permission'],
    ['a human', 'iago@zulip.com', 10, 'No such bot'],
    ['an unknown id', 'iago@zulip.com', 99999, 'No such bot'],
    ["another organization's user", 'iago@zulip.com', 20, 'No such bot'],
  ])('refuses %s', async (_what, as, botId, msg) => {
    expectError(await apiKeyOf(as, botId), msg);
  });

  it('replaces the key: the old one stops working at once, the new one works', async () => {
    const before = await stored(17);
    const body = expectSuccess(await regen('ZOE@zulip.com', 17));
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.api_key).not.toBe(before.apiKey);
    expect((await stored(17)).apiKey).toBe(body.api_key);
    expect(await usersStore.getByApiKey(before.apiKey)).toBeUndefined();
    expect((await usersStore.getByApiKey(body.api_key))?.id).toBe(17);
  });

  it('refuses another member and keeps the key', async () => {
    const before = await stored(17);
    expectError(await regen('othello@zulip.com', 17), 'Insufficient permission');
    expect((await stored(17)).apiKey).toBe(before.apiKey);
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('renames the bot: the organization gets realm_user update', async () => {
    const othello = await openQueue('othello@zulip.com');
    const body = expectSuccess(await patch('ZOE@zulip.com', 17, { full_name: ' Renamed Webhook ' }));
    expect(body).toMatchObject({
      full_name: 'Renamed Webhook',
      bot_owner: 'ZOE@zulip.com',
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: null,
    });
    expect((await stored(17)).fullName).toBe('Renamed Webhook');
    expect(await othello.drain()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: 17, full_name: 'Renamed Webhook' } }]);
  });

  it.each([
    ["an active user's name", { full_name: 'Iago' }, 'Name is already in use.'],
    ['a name too long', { full_name: 'n'.repeat(101) }, 'Name too long!'],
    ['an unknown owner', { bot_owner_id: 99999 }, 'Failed to change owner, no such user'],
    ["another organization's owner", { bot_owner_id: 20 }, 'Failed to change owner, no such user'],
    ['a deactivated owner', { bot_owner_id: 18 }, 'Failed to change owner, user is deactivated'],
    ['a bot owner', { bot_owner_id: 16 }, "Failed to change owner, bots can't own other bots"],
  ])('refuses %s and changes nothing', async (_what, params, msg) => {
    const before = await stored(17);
    expectError(await patch('ZOE@zulip.com', 17, params), msg);
    expect(await stored(17)).toEqual(before);
  });

  it('refuses another member\'s change with "Insufficient permission"', async () => {
    const before = await stored(17);
    expectError(await patch('othello@zulip.com', 17, { full_name: 'Stolen Bot' }), 'Insufficient permission');
    expect(await stored(17)).toEqual(before);
  });

  it('refuses a role change by the owning member with "Must be an organization administrator"', async () => {
    expectError(await patch('ZOE@zulip.com', 17, { role: 200 }), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored(17)).role).toBe(400);
  });

  it('refuses making a bot an owner by an administrator with "Must be an organization owner"', async () => {
    expectError(await patch('iago@zulip.com', 17, { role: 100 }), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored(17)).role).toBe(400);
  });

  it('lets an administrator change its role', async () => {
    const othello = await openQueue('othello@zulip.com');
    expectSuccess(await patch('iago@zulip.com', 17, { role: 300 }));
    expect((await stored(17)).role).toBe(300);
    expect((await othello.drain())[0]).toEqual({ type: 'realm_user', op: 'update', person: { user_id: 17, role: 300 } });
  });

  it('gives the bot to another member: realm_bot delete to the old owner, add to the new one, realm_user to all', async () => {
    const [zoe, othello, iago, hamlet] = await Promise.all([
      openQueue('ZOE@zulip.com'),
      openQueue('othello@zulip.com'),
      openQueue('iago@zulip.com'),
      openQueue('hamlet@zulip.com'),
    ]);
    const body = expectSuccess(await patch('ZOE@zulip.com', 17, { bot_owner_id: 12 }));
    expect(body.bot_owner).toBe('othello@zulip.com');
    expect((await stored(17)).botOwnerId).toBe(12);
    const ownerUpdate = { type: 'realm_user', op: 'update', person: { user_id: 17, bot_owner_id: 12 } };
    expect(await zoe.drain()).toEqual([{ type: 'realm_bot', op: 'delete', bot: { user_id: 17 } }, ownerUpdate]);
    expect(await othello.drain()).toEqual([
      {
        type: 'realm_bot',
        op: 'add',
        bot: {
          user_id: 17,
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
          services: [],
        },
      },
      ownerUpdate,
    ]);
    expect(await iago.drain()).toEqual([ownerUpdate]);
    expect(await hamlet.drain()).toEqual([ownerUpdate]);
    // The former owner may no longer administer it.
    expectError(await apiKeyOf('ZOE@zulip.com', 17), 'Insufficient permission');
  });

  it('sends nothing when the owner does not change', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('othello@zulip.com', 17, { bot_owner_id: 12 }));
    expect(await hamlet.drain()).toEqual([]);
  });
});

describe('DELETE /bots/{bot_id}', () => {
  it('refuses another member and a human, and changes nothing', async () => {
    expectError(await del('hamlet@zulip.com', 17), 'Insufficient permission');
    expectError(await del('iago@zulip.com', 12), 'No such bot');
    expect((await stored(17)).isActive).toBe(true);
    expect((await stored(12)).isActive).toBe(true);
  });

  it("deactivates the owner's bot: its key stops working and the organization is told", async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    const bot = await stored(17);
    expectSuccess(await del('othello@zulip.com', 17));
    expect((await stored(17)).isActive).toBe(false);
    expect(await hamlet.drain()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: 17, is_active: false } }]);
    const refused = await call(me, { method: 'GET', path: '/users/me', headers: { authorization: basicAuth(bot.email, bot.apiKey) } });
    expectError(refused, 'Account is deactivated', 401, 'USER_DEACTIVATED');
  });

  it('succeeds again for a deactivated bot, sending nothing', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await del('othello@zulip.com', 17));
    expect(await hamlet.drain()).toEqual([]);
  });

  it('refuses to reactivate a bot whose name an active user took meanwhile', async () => {
    expectSuccess(await create('hamlet@zulip.com', { full_name: 'Renamed Webhook', short_name: 'renamed' }));
    const revive = () =>
      call(reactivateUser, {
        method: 'POST',
        path: '/users/17/reactivate',
        pathParameters: { user_id_or_email: '17' },
        routeKey: 'POST /users/{user_id_or_email}/reactivate',
        as: 'iago@zulip.com',
      });
    expectError(
      await revive(),
      'There is already an active bot named "Renamed Webhook" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
    );
    expect((await stored(17)).isActive).toBe(false);
  });
});
