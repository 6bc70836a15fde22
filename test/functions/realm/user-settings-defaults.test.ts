// PATCH /realm/user_settings_defaults: administrators set what new accounts start with.
import { handler as register } from '../../../functions/events/register';
import { handler as update } from '../../../functions/realm/user-settings-defaults';
import { handler as createUser } from '../../../functions/users/create';
import * as usersStore from '../../../lib/store/users';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const patch = (as: string, params: Record<string, unknown>) =>
  call(update, { method: 'PATCH', path: '/realm/user_settings_defaults', as, params });
const defaults = async (as = 'hamlet@zulip.com') =>
  expectSuccess(
    await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['realm_user_settings_defaults'] } }),
  ).realm_user_settings_defaults;
const stored = async (realmId = 2) => (await realmsStore.get(realmId, { consistent: true }))!;

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults: one update event per changed setting to every user, and register shows them', async () => {
    const queue = await openQueue('othello@zulip.com');
    expect((await defaults()).enter_sends).toBe(false);
    expect(
      expectSuccess(
        await patch('iago@zulip.com', { enter_sends: true, web_home_view: 'all_messages', color_scheme: 1, notification_sound: 'ding' }),
      ),
    ).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await queue.drain()).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'web_home_view', value: 'all_messages' },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'notification_sound', value: 'ding' },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: true },
    ]);
    expect(await defaults()).toMatchObject({
      enter_sends: true,
      web_home_view: 'all_messages',
      notification_sound: 'ding',
      color_scheme: 1,
    });
  });

  it('sends nothing for values already set', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('iago@zulip.com', { enter_sends: true }));
    expect(await queue.drain()).toEqual([]);
  });

  it.each([['hamlet@zulip.com'], ['shiva@zulip.com'], ['polonius@zulip.com']])(
    'refuses %s, who is no administrator, and changes nothing',
    async (as) => {
      const before = await stored();
      expectError(await patch(as, { enter_sends: false }), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
      expect(await stored()).toEqual(before);
    },
  );

  it.each([
    [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
    [{ color_scheme: 9 }, 'Invalid color_scheme'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ notification_sound: 'gong' }, "Invalid notification sound 'gong'"],
    [{ enable_sounds: false, email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_address_visibility: 7 }, 'Invalid email_address_visibility'],
  ])('refuses bad value #%# with upstream’s message, and changes nothing', async (params, msg) => {
    const before = await stored();
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await patch('iago@zulip.com', params), msg);
    expect(await stored()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it('ignores settings that are personal only, such as the time zone', async () => {
    const body = expectSuccess(await patch('iago@zulip.com', { timezone: 'Europe/Paris' }));
    expect(body.ignored_parameters_unsupported).toEqual(['timezone']);
  });

  it("gives a new account the organization's defaults (upstream's copy_default_settings), its own time zone, and the stream push index", async () => {
    expectSuccess(await patch('iago@zulip.com', { emojiset: 'text', enable_stream_push_notifications: true, presence_enabled: false }));
    await usersStore.update(2, 11, { canCreateUsers: true });
    const params = { email: 'fresh@zulip.com', password: 'a-long-passphrase', full_name: 'Fresh Person' };
    const { user_id } = expectSuccess(await call(createUser, { method: 'POST', path: '/users', as: 'iago@zulip.com', params }));
    const settings = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'fresh@zulip.com', params: { fetch_event_types: ['user_settings'] } }),
    ).user_settings;
    expect(settings).toMatchObject({ emojiset: 'text', enable_stream_push_notifications: true, presence_enabled: false, timezone: '' });
    expect(await usersStore.listIdsWithStreamPush(2)).toContain(user_id);
  });
});
