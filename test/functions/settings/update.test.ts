import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as register } from '../../../functions/events/register';
import { handler as updateSettings } from '../../../functions/settings/update';
import { handler as updateRealm } from '../../../functions/realm/update';
import { devPassword } from '../../../lib/passwords';
import * as passwordsStore from '../../../lib/store/passwords';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const patch = (as: string, params: Record<string, unknown>) => call(updateSettings, { method: 'PATCH', path: '/settings', as, params });
const userSettings = async (as: string) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['user_settings'] } }))
    .user_settings;
const storedUser = async (email: string) => (await usersStore.listByEmail(email))[0];

describe('PATCH /settings', () => {
  it("changes display, notification and typing settings and sends one user_settings event for each, in register's order", async () => {
    const queue = await openQueue('hamlet@zulip.com');
    const other = await openQueue('iago@zulip.com');
    expectSuccess(
      await patch('hamlet@zulip.com', {
        color_scheme: 2,
        enable_sounds: false,
        send_stream_typing_notifications: false,
        emojiset: 'twitter',
      }),
    );
    expect(await queue.drain()).toEqual([
      { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 },
      { type: 'user_settings', op: 'update', property: 'emojiset', value: 'twitter' },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'user_settings', op: 'update', property: 'send_stream_typing_notifications', value: false },
    ]);
    expect(await other.drain()).toEqual([]);
  });

  it("keeps register's user_settings in step: the previous snapshot plus the events", async () => {
    const before = await userSettings('cordelia@zulip.com');
    const queue = await openQueue('cordelia@zulip.com');
    expectSuccess(
      await patch('cordelia@zulip.com', {
        twenty_four_hour_time: true,
        web_home_view: 'all_messages',
        presence_enabled: false,
        timezone: 'Europe/Paris',
      }),
    );
    const events = (await queue.drain()).filter((e) => e.type === 'user_settings');
    const expected = { ...before };
    for (const e of events) expected[e.property] = e.value;
    expect(await userSettings('cordelia@zulip.com')).toEqual(expected);
    expect(events.map((e) => e.property).sort()).toEqual(['presence_enabled', 'timezone', 'twenty_four_hour_time', 'web_home_view']);
  });

  it('sends language_name with a default_language change', async () => {
    const queue = await openQueue('othello@zulip.com');
    expectSuccess(await patch('othello@zulip.com', { default_language: 'de' }));
    expect(await queue.drain()).toEqual([
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
    ]);
  });

  it('tells the organization about a new time zone', async () => {
    const other = await openQueue('iago@zulip.com');
    expectSuccess(await patch('prospero@zulip.com', { timezone: 'Asia/Tokyo' }));
    expect(await other.drain()).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: 14, timezone: 'Asia/Tokyo' } }]);
  });

  it('sends no event for a value that does not change', async () => {
    const queue = await openQueue('ZOE@zulip.com');
    expectSuccess(await patch('ZOE@zulip.com', { enable_sounds: true, color_scheme: 1 }));
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    [{ color_scheme: 7 }, 'Invalid color_scheme'],
    [{ color_scheme: 'dark' }, 'color_scheme is not valid JSON'],
    [{ enable_sounds: 'yes' }, 'enable_sounds is not valid JSON'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ web_home_view: 'home' }, 'Invalid web_home_view'],
    [{ default_language: 'xx-nope-language' }, 'Invalid default_language'],
    [{ notification_sound: 'trumpet' }, "Invalid notification sound 'trumpet'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ timezone: 'Mars/Olympus' }, 'Invalid timezone'],
  ])('refuses %j with "%s" and changes nothing', async (params, msg) => {
    const before = await storedUser('desdemona@zulip.com');
    const queue = await openQueue('desdemona@zulip.com');
    expectError(await patch('desdemona@zulip.com', { enable_sounds: false, ...params }), msg);
    expect(await storedUser('desdemona@zulip.com')).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it("refuses an email change with upstream's message and changes nothing", async () => {
    const before = await storedUser('shiva@zulip.com');
    expectError(
      await patch('shiva@zulip.com', { email: 'new@zulip.com', enable_sounds: false }),
      'Email address changes are disabled in this organization.',
    );
    expect(await storedUser('shiva@zulip.com')).toEqual(before);
  });

  describe('full_name', () => {
    it('renames the caller and tells the organization in one realm_user event', async () => {
      const queue = await openQueue('iago@zulip.com');
      expectSuccess(await patch('prospero@zulip.com', { full_name: '  Prospero, Duke of Milan ' }));
      const prospero = await storedUser('prospero@zulip.com');
      expect(prospero.fullName).toBe('Prospero, Duke of Milan');
      expect((await queue.drain()).filter((e) => e.type === 'realm_user')).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: prospero.id, full_name: 'Prospero, Duke of Milan' } },
      ]);
    });

    it("refuses a bad name with upstream's messages, and changes nothing else the request asked", async () => {
      const before = await storedUser('prospero@zulip.com');
      for (const [name, msg] of [
        ['', 'Name too short!'],
        ['x'.repeat(101), 'Name too long!'],
        ['Pros*pero', 'Invalid characters in name!'],
        ['Prospero|15', 'Invalid format!'],
      ]) {
        expectError(await patch('prospero@zulip.com', { full_name: name, enable_sounds: false }), msg);
      }
      expect(await storedUser('prospero@zulip.com')).toEqual(before);
      expect((await userSettings('prospero@zulip.com')).enable_sounds).toBe(true);
    });

    it('refuses a member where the organization disables name changes, but not an administrator', async () => {
      expectSuccess(
        await call(updateRealm, { method: 'PATCH', path: '/realm', as: 'iago@zulip.com', params: { name_changes_disabled: true } }),
      );
      try {
        expectError(
          await patch('polonius@zulip.com', { full_name: 'Lord Chamberlain' }),
          'Name changes are disabled in this organization.',
        );
        expect((await storedUser('polonius@zulip.com')).fullName).toBe('Polonius');
        // The same name is no change: nothing to refuse.
        expectSuccess(await patch('polonius@zulip.com', { full_name: 'Polonius' }));
        expectSuccess(await patch('iago@zulip.com', { full_name: 'Iago the Ensign' }));
        expect((await storedUser('iago@zulip.com')).fullName).toBe('Iago the Ensign');
      } finally {
        await call(updateRealm, { method: 'PATCH', path: '/realm', as: 'iago@zulip.com', params: { name_changes_disabled: false } });
      }
    });
  });

  describe('password change', () => {
    const login = (username: string, password: string) =>
      call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params: { username, password } });

    it('sets a new password that then signs in, and the old one no longer does', async () => {
      const old = devPassword('polonius@zulip.com');
      expectSuccess(await patch('polonius@zulip.com', { old_password: old, new_password: 'a much better password' }));
      expect(expectSuccess(await login('polonius@zulip.com', 'a much better password')).user_id).toBe(13);
      expectError(await login('polonius@zulip.com', old), 'Your username or password is incorrect', 401, 'AUTHENTICATION_FAILED');
    });

    it('refuses a wrong old password with "Wrong password!" and keeps the password', async () => {
      const before = await passwordsStore.getPasswordHash(8);
      expectError(await patch('cordelia@zulip.com', { old_password: 'nope', new_password: 'another good one' }), 'Wrong password!');
      expect(await passwordsStore.getPasswordHash(8)).toBe(before);
    });

    it('refuses a new password that is too short', async () => {
      const before = await passwordsStore.getPasswordHash(11);
      expectError(
        await patch('iago@zulip.com', { old_password: devPassword('iago@zulip.com'), new_password: 'abc' }),
        'New password is too weak!',
      );
      expect(await passwordsStore.getPasswordHash(11)).toBe(before);
    });

    it('limits wrong old passwords like failed logins', async () => {
      for (let i = 0; i < 5; i += 1)
        expectError(await patch('hamlet@zulip.com', { old_password: `bad${i}`, new_password: 'long enough' }), 'Wrong password!');
      const result = await patch('hamlet@zulip.com', { old_password: devPassword('hamlet@zulip.com'), new_password: 'long enough' });
      expect(result.status).toBe(400);
      expect(result.body.msg).toMatch(/^You're making too many attempts! Try again in 1[78]\d\d seconds\.$/);
    });
  });
});
