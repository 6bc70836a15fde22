// The web pages in a real browser (headless Chromium), over HTTP through serverless-offline as
// `npm start` serves them: sign in on /login/, see the account page, reveal the API key, download
// the zuliprc and call the API with it, sign out; a wrong password; a form posted from another
// site without the CSRF token.
import { readFileSync } from 'node:fs';
import { devPassword } from '../../lib/passwords';
import { expectSuccess } from '../helpers/api';
import { useBrowser } from '../helpers/browser';
import { loadZulipJs, useLocalService } from '../helpers/e2e';

const service = useLocalService();
const browser = useBrowser();

const IAGO = 'iago@zulip.com';

/** The zuliprc's `[api]` values. */
const parseZuliprc = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('e2e: the web pages in Chromium', () => {
  it('signs in, shows the API key, downloads a zuliprc that works with the API, and signs out', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.origin}/login/`);
    expect(await page.title()).toBe('Log in | Zulip');
    await page.getByLabel('Email').fill(IAGO);
    await page.getByLabel('Password').fill(devPassword(IAGO));
    await browser.screenshot(page, 'login');
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.waitForURL(`${service.origin}/accounts/`);
    expect(await page.locator('main').innerText()).toContain('iago@zulip.com');
    await browser.screenshot(page, 'account');

    await page.getByLabel('Your password').fill(devPassword(IAGO));
    await page.getByRole('button', { name: 'Get API key' }).click();
    const apiKey = await page.locator('#api_key_value').innerText();
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    await browser.screenshot(page, 'api-key');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download zuliprc' }).click()]);
    expect(download.suggestedFilename()).toBe('zuliprc');
    const zuliprc = readFileSync((await download.path())!, 'utf8');
    expect(zuliprc.startsWith('[api]\n')).toBe(true);
    const { email, key, site } = parseZuliprc(zuliprc);
    expect({ email, key }).toEqual({ email: IAGO, key: apiKey });
    expect(site).toMatch(/^https?:\/\//);

    // The terminal client and bots use the zuliprc's email and key with HTTP Basic authentication.
    const zulipInit = loadZulipJs();
    const client = await zulipInit({ realm: service.origin, username: email, apiKey: key });
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', email: IAGO, user_id: 11 });
    expectSuccess(await service.request('GET', '/users/me', { auth: { email, apiKey: key } }));

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${service.origin}/login/`);
    await page.goto(`${service.origin}/accounts/`);
    expect(page.url()).toBe(`${service.origin}/login/`);
    await page.close();
  }, 120000);

  it('shows upstream text for a wrong password and stays signed out', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.origin}/login/`);
    await page.getByLabel('Email').fill('hamlet@zulip.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe(
      'Please enter a correct email and password. Note that both fields may be case-sensitive.',
    );
    expect(await page.getByLabel('Email').inputValue()).toBe('hamlet@zulip.com');
    await browser.screenshot(page, 'login-wrong-password');
    await page.goto(`${service.origin}/accounts/`);
    expect(page.url()).toBe(`${service.origin}/login/`);
    await page.close();
  }, 60000);

  it('refuses a login form posted from another page without the CSRF token', async () => {
    const page = await browser.newPage();
    // A page of another origin (here: none) with a form aimed at the login: the browser sends no
    // CSRF cookie with it (SameSite=Lax) and the form has no token.
    await page.setContent(
      `<form method="post" action="${service.origin}/login/"><input name="username" value="${IAGO}"><input name="password" value="${devPassword(IAGO)}"><button>Go</button></form>`,
    );
    const [response] = await Promise.all([
      page.waitForResponse(`${service.origin}/login/`),
      page.getByRole('button', { name: 'Go' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await page.waitForLoadState();
    expect(await page.locator('main').innerText()).toContain('CSRF verification failed. Request aborted.');
    await browser.screenshot(page, 'csrf-refused');
    await page.goto(`${service.origin}/accounts/`);
    expect(page.url()).toBe(`${service.origin}/login/`);
    await page.close();
  }, 60000);
});
