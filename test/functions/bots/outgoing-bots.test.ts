// Outgoing webhook bots (bot_type 3): POST /bots with payload_url and interface_type, the bot's
// service in GET /bots, register's realm_bots and the realm_bot events, and PATCH /bots/{bot_id}
// with service_payload_url and service_interface, against the development data (hamlet 10 a
// member, iago 11 an administrator, desdemona 9 the owner; default-bot 16 owned by desdemona).
import { handler as createBot } from '../../../functions/bots/create';
import { handler as listBots } from '../../../functions/bots/list';
import { handler as updateBot } from '../../../functions/bots/update';
import { handler as register } from '../../../functions/events/register';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const create = (params: Record<string, unknown>, as = 'hamlet@zulip.com') => call(createBot, { method: 'POST', path: '/bots', as, params });
const patch = (botId: number, params: Record<string, unknown>, as = 'hamlet@zulip.com') =>
  call(updateBot, {
    method: 'PATCH',
    path: `/bots/${botId}`,
    pathParameters: { bot_id: String(botId) },
    routeKey: 'PATCH /bots/{bot_id}',
    as,
    params,
  });
const stored = async (userId: number) => (await usersStore.get(2, userId, { consistent: true }))!;
const usersOfZulip = async () => (await usersStore.listOfRealm(2)).length;
const outgoing = (shortName: string, extra: Record<string, unknown> = {}) => ({
  full_name: `Outgoing ${shortName}`,
  short_name: shortName,
  bot_type: 3,
  payload_url: JSON.stringify('http://bots.example.com/hook'),
  ...extra,
});

describe('POST /bots with bot_type 3', () => {
  it('creates an outgoing webhook bot with its service and a token of its own, shown to its administrators', async () => {
    const [hamlet, iago] = await Promise.all([openQueue('hamlet@zulip.com'), openQueue('iago@zulip.com')]);
    const body = expectSuccess(await create(outgoing('echo')));
    const bot = await stored(body.user_id);
    expect(bot).toMatchObject({ botType: 3, botOwnerId: 10, service: { baseUrl: 'http://bots.example.com/hook', interface: 1 } });
    expect(bot.service!.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(bot.service!.token).not.toBe(bot.apiKey);
    const services = [{ base_url: 'http://bots.example.com/hook', interface: 1, token: bot.service!.token }];
    for (const queue of [hamlet, iago]) {
      const added = (await queue.drain()).filter((e) => e.type === 'realm_bot');
      expect(added).toEqual([{ type: 'realm_bot', op: 'add', bot: expect.objectContaining({ user_id: bot.id, services }) }]);
    }
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm_bot'] } }),
    );
    expect(state.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id).services).toEqual(services);
    const list = expectSuccess(await call(listBots, { method: 'GET', path: '/bots', as: 'hamlet@zulip.com' }));
    expect(list.bots.find((b: { username: string }) => b.username === 'echo-bot@localhost').services).toEqual(services);
  });

  it('keeps the Slack-compatible interface when asked for it', async () => {
    const body = expectSuccess(await create(outgoing('slacky', { interface_type: 2 })));
    expect((await stored(body.user_id)).service).toMatchObject({ interface: 2 });
  });

  it('shows other bots with no services', async () => {
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'desdemona@zulip.com', params: { fetch_event_types: ['realm_bot'] } }),
    );
    expect(state.realm_bots.find((b: { user_id: number }) => b.user_id === 16).services).toEqual([]);
  });

  it.each([
    ['a URL with a bad host', { payload_url: JSON.stringify('http://127.0.0.:5002') }, 'payload_url is not a URL'],
    ['a URL of another scheme', { payload_url: JSON.stringify('ftp://bots.example.com/') }, 'payload_url is not a URL'],
    ['a script URL', { payload_url: JSON.stringify('javascript:alert(1)') }, 'payload_url is not a URL'],
    ['a URL with spaces', { payload_url: JSON.stringify('http://bots.example.com/a b') }, 'payload_url is not a URL'],
    ['a URL that is not JSON', { payload_url: 'http://bots.example.com/' }, 'payload_url is not valid JSON'],
    ['no URL', { payload_url: undefined }, "Missing 'payload_url' argument"],
    ['an unknown interface', { interface_type: -1 }, 'Invalid interface type'],
    ['a third interface', { interface_type: 3 }, 'Invalid interface type'],
  ])('refuses %s and creates nothing', async (_what, extra, msg) => {
    const before = await usersOfZulip();
    const params: Record<string, unknown> = outgoing('refused', extra);
    if ('payload_url' in extra && extra.payload_url === undefined) delete params.payload_url;
    const result = await create(params);
    if (msg.startsWith("Missing '")) expectError(result, msg, 400, 'REQUEST_VARIABLE_MISSING');
    else expectError(result, msg);
    expect(await usersOfZulip()).toBe(before);
  });
});

describe('PATCH /bots/{bot_id} with service_payload_url', () => {
  it("changes the service's URL and interface, keeps its token, and tells the bot's administrators", async () => {
    const body = expectSuccess(await create(outgoing('changing')));
    const before = await stored(body.user_id);
    const [hamlet, iago] = await Promise.all([openQueue('hamlet@zulip.com'), openQueue('iago@zulip.com')]);
    const result = expectSuccess(
      await patch(body.user_id, { service_payload_url: JSON.stringify('https://other.example.com/x'), service_interface: 2 }),
    );
    expect(result).toMatchObject({ service_payload_url: 'https://other.example.com/x', service_interface: 2, config_data: null });
    const after = await stored(body.user_id);
    expect(after.service).toEqual({ baseUrl: 'https://other.example.com/x', interface: 2, token: before.service!.token });
    const services = [{ base_url: 'https://other.example.com/x', interface: 2, token: before.service!.token }];
    for (const queue of [hamlet, iago]) {
      expect((await queue.drain()).filter((e) => e.type === 'realm_bot')).toEqual([
        { type: 'realm_bot', op: 'update', bot: { user_id: body.user_id, services } },
      ]);
    }
  });

  it('sets the generic interface when only the URL is sent, as upstream', async () => {
    const body = expectSuccess(await create(outgoing('urlonly', { interface_type: 2 })));
    const result = expectSuccess(await patch(body.user_id, { service_payload_url: JSON.stringify('http://bots.example.com/y') }));
    expect(result).toMatchObject({ service_payload_url: 'http://bots.example.com/y', service_interface: 1 });
    expect((await stored(body.user_id)).service).toMatchObject({ baseUrl: 'http://bots.example.com/y', interface: 1 });
  });

  it('changes nothing for an interface without a URL, and answers with no URL', async () => {
    const body = expectSuccess(await create(outgoing('ifonly')));
    const result = expectSuccess(await patch(body.user_id, { service_interface: 2 }));
    expect(result).toMatchObject({ service_payload_url: null, service_interface: 2 });
    expect((await stored(body.user_id)).service).toMatchObject({ interface: 1 });
  });

  it.each([
    ['a URL that is not one', { service_payload_url: JSON.stringify('http://127.0.0.:1') }, 'service_payload_url is not a URL'],
    [
      'an unknown interface',
      { service_payload_url: JSON.stringify('http://bots.example.com/z'), service_interface: 7 },
      'Invalid interface type',
    ],
  ])('refuses %s and changes nothing', async (_what, params, msg) => {
    const body = expectSuccess(await create(outgoing(`bad${msg.length}`)));
    const before = await stored(body.user_id);
    expectError(await patch(body.user_id, params), msg);
    expect(await stored(body.user_id)).toEqual(before);
  });

  it('refuses a service URL for a bot that has no service', async () => {
    const before = await stored(16);
    expectError(
      await patch(16, { service_payload_url: JSON.stringify('http://bots.example.com/') }, 'desdemona@zulip.com'),
      'This bot has no outgoing webhook service',
    );
    expect(await stored(16)).toEqual(before);
  });
});
