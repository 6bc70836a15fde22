// Personal settings in the web app, in Chromium: the overlay loads on first use at its #settings
// hash; a switch, the theme, a custom profile field, a muted user and a new avatar changed through
// the page are what the API then reports, and another person sees the profile field and the avatar.
import type { Page } from 'playwright-core';
import { devPassword } from '../../lib/passwords';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { signIn as signInAt } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const errors: string[] = [];

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64');

const signIn = (page: Page, email: string): Promise<void> => signInAt(page, service.origin, email, errors);

/** Polls the API until `check` holds (a change's event and its write are not instant). */
const eventually = async <T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> => {
  let value = await read();
  for (let i = 0; i < 50 && !check(value); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
};

describe('e2e: personal settings in the web app', () => {
  let page: Page;
  let api: any;
  let iagoApi: any;
  let hamletId: number;
  let iagoId: number;

  beforeAll(async () => {
    api = await zulipClient(service, HAMLET);
    iagoApi = await zulipClient(service, IAGO);
    const users = (await api.users.retrieve()).members as { email: string; user_id: number }[];
    hamletId = users.find((u) => u.email === HAMLET)!.user_id;
    iagoId = users.find((u) => u.email === IAGO)!.user_id;
    page = await browser.newPersonPage();
    await signIn(page, HAMLET);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  const settingsOf = async () =>
    await api.callEndpoint('/register', 'POST', { fetch_event_types: JSON.stringify(['user_settings', 'muted_users']) });

  it('opens at #settings over the view, loads its chunk then, and closes back to the view', async () => {
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (/\/static\/chunk-/.test(request.url())) chunks.push(request.url());
    });
    await page.goto(`${service.origin}/#feed`);
    await page.waitForSelector('#message_view_header');
    const before = chunks.length;
    await page.click('.settings-link');
    await page.waitForSelector('#settings_page');
    expect(page.url()).toBe(`${service.origin}/#settings/profile`);
    expect(chunks.length).toBeGreaterThan(before);
    await browser.screenshot(page, 'webapp-settings-profile');
    await page.keyboard.press('Escape');
    await page.locator('#settings_page').waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${service.origin}/#feed`);
  }, 60000);

  it('saves a notification switch, the theme and 24 hour time, as the API then reports', async () => {
    await page.goto(`${service.origin}/#settings/notifications`);
    const toggle = page.locator('input[name="enable_offline_push_notifications"]');
    const was = await toggle.isChecked();
    await toggle.click();
    await page.goto(`${service.origin}/#settings/preferences`);
    await page.check('input[name="color_scheme"][value="2"]');
    await page.check('input[name="twenty_four_hour_time"]');
    await page.waitForSelector(':root[data-theme="dark"]');
    await browser.screenshot(page, 'webapp-settings-dark');
    const settings = await eventually(
      settingsOf,
      (s) => s.user_settings.color_scheme === 2 && s.user_settings.twenty_four_hour_time === true,
    );
    expect(settings.user_settings).toMatchObject({ enable_offline_push_notifications: !was, color_scheme: 2, twenty_four_hour_time: true });
    // A reload keeps them: they are the server's.
    await page.reload();
    await page.waitForSelector(':root[data-theme="dark"]');
    expect(await page.locator('input[name="enable_offline_push_notifications"]').count()).toBe(0);
    await page.check('input[name="color_scheme"][value="3"]');
    await page.waitForSelector(':root[data-theme="light"]');
    // As the system: Chromium's headless default is light.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.check('input[name="color_scheme"][value="1"]');
    await page.waitForSelector(':root[data-theme="dark"]');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector(':root[data-theme="light"]');
  }, 90000);

  it('refuses a wrong current password with the API message, and changes nothing', async () => {
    await page.goto(`${service.origin}/#settings/account-and-privacy`);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('a new password 123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('.settings-status', { hasText: 'Wrong password!' }).waitFor();
    await browser.screenshot(page, 'webapp-settings-account');
    // The old password still signs in.
    const anonymous = await api.callEndpoint('/fetch_api_key', 'POST', { username: HAMLET, password: devPassword(HAMLET) });
    expect(anonymous).toMatchObject({ result: 'success' });
  }, 60000);

  it('changes my name, which the heading, the API and another person then show, and changes it back', async () => {
    await page.goto(`${service.origin}/#settings/profile`);
    const rename = async (name: string) => {
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Change name' }).click();
      // The whole heading: the second name is a part of the first.
      await page.locator('#settings_page h3', { hasText: new RegExp(`^${name}$`) }).waitFor();
    };
    await rename('King Hamlet of Denmark');
    await browser.screenshot(page, 'webapp-settings-name');
    const { user } = await iagoApi.callEndpoint(`/users/${hamletId}`, 'GET', {});
    expect(user.full_name).toBe('King Hamlet of Denmark');
    await rename('King Hamlet');
    expect((await iagoApi.callEndpoint(`/users/${hamletId}`, 'GET', {})).user.full_name).toBe('King Hamlet');
  }, 60000);

  it('saves a custom profile field that another person then reads', async () => {
    await page.goto(`${service.origin}/#settings/profile`);
    const field = page.locator('.custom_user_field', { hasText: 'Favorite food' }).locator('input');
    await field.fill('Pickled herring');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.locator('.settings-status', { hasText: 'Your profile was saved.' }).waitFor();
    const { user } = await iagoApi.callEndpoint(`/users/${hamletId}`, 'GET', { include_custom_profile_fields: 'true' });
    expect(Object.values(user.profile_data as Record<string, { value: string }>).map((v) => v.value)).toContain('Pickled herring');
  }, 60000);

  it('uploads an avatar that another person sees, then mutes and unmutes someone', async () => {
    await page.goto(`${service.origin}/#settings/profile`);
    await page.setInputFiles('.avatar-upload input[type="file"]', { name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.settings-status', { hasText: 'Your avatar was changed.' }).waitFor();
    const { user } = await iagoApi.callEndpoint(`/users/${hamletId}`, 'GET', {});
    expect(user.avatar_url).toMatch(/\/user_avatars\//);

    await page.goto(`${service.origin}/#settings/muted-users`);
    await page.selectOption('.mute-user select', String(iagoId));
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    await page.locator(`.muted-users li[data-user-id="${iagoId}"]`).waitFor();
    await browser.screenshot(page, 'webapp-settings-muted');
    expect((await settingsOf()).muted_users.map((m: { id: number }) => m.id)).toEqual([iagoId]);
    await page.locator(`.muted-users li[data-user-id="${iagoId}"] .unmute`).click();
    await page.locator('.settings-empty').waitFor();
    expect((await settingsOf()).muted_users).toEqual([]);
  }, 60000);
});
