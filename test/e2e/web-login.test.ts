// The web pages in a real browser (headless Chromium), over HTTP through serverless-offline as
// `npm start` serves them: the organization's address leads to /login/; sign in there, see the account page, reveal the API key, download
// the zuliprc and call the API with it, sign out; a wrong password; a forgotten password reset by
// email (the link read on /emails/); a form posted from another site without the CSRF token.
import { devPassword } from '../../lib/passwords';
import { expectSuccess } from '../helpers/api';
import { downloadedText, useBrowser } from '../helpers/browser';
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
    // The organization's address, as a newcomer opens it: the login page.
    await page.goto(`${service.origin}/`);
    expect(page.url()).toBe(`${service.origin}/login/`);
    expect(await page.title()).toBe('Log in | Zulip');
    await page.getByLabel('Email').fill(IAGO);
    await page.getByLabel('Password').fill(devPassword(IAGO));
    await browser.screenshot(page, 'login');
    await page.getByRole('button', { name: 'Log in' }).click();

    // Signing in opens the web app; the account page is a link away.
    await page.waitForURL(`${service.origin}/`);
    await page.goto(`${service.origin}/accounts/`);
    expect(await page.locator('main').innerText()).toContain('iago@zulip.com');
    await browser.screenshot(page, 'account');

    await page.getByLabel('Your password').fill(devPassword(IAGO));
    await page.getByRole('button', { name: 'Get API key' }).click();
    const apiKey = await page.locator('#api_key_value').innerText();
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    await browser.screenshot(page, 'api-key');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download zuliprc' }).click()]);
    expect(download.suggestedFilename()).toBe('zuliprc');
    const zuliprc = await downloadedText(download);
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

  it('resets a forgotten password by email and signs in with the new one', async () => {
    const CORDELIA = 'cordelia@zulip.com';
    const newPassword = 'a brand new password for cordelia';
    const page = await browser.newPage();
    await page.goto(`${service.origin}/login/`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${service.origin}/accounts/password/reset/`);
    expect(await page.title()).toBe('Reset your password | Zulip');
    await page.getByLabel('Email').fill(CORDELIA);
    await browser.screenshot(page, 'password-reset-1-request');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.locator('h1', { hasText: 'Check your email' }).waitFor();
    expect(await page.locator('#reset_email').innerText()).toBe(CORDELIA);
    await browser.screenshot(page, 'password-reset-2-check-email');

    // The email on /emails/ (development mode), with its one-time link.
    await page.goto(`${service.origin}/emails/`);
    const email = page.locator('article', { hasText: 'Password reset request for Zulip Dev' }).filter({ hasText: CORDELIA }).first();
    const resetHref = await email.locator('a[href*="/accounts/password/reset/"]').first().getAttribute('href');
    expect(resetHref).toMatch(/\/accounts\/password\/reset\/[a-z0-9]{24}\/$/);
    await browser.screenshot(page, 'password-reset-3-email');

    const resetUrl = `${service.origin}${new URL(resetHref!).pathname}`;
    await page.goto(resetUrl);
    expect(await page.locator('#reset_email').innerText()).toBe(CORDELIA);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm password').fill(newPassword);
    await browser.screenshot(page, 'password-reset-4-new-password');
    await page.getByRole('button', { name: 'Reset password' }).click({ timeout: 60000 });
    await page.locator('h1', { hasText: 'Password reset' }).waitFor({ timeout: 60000 });
    expect(await page.locator('main').innerText()).toContain('Your password has been reset.');
    await browser.screenshot(page, 'password-reset-5-done');

    // The link works once.
    await page.goto(resetUrl);
    expect(await page.locator('main').innerText()).toContain('Sorry, the link you provided is invalid or has already been used.');
    await browser.screenshot(page, 'password-reset-6-used-link');

    // Signing in with the new password, on the web and with zulip-js; the old one no longer works.
    await page.goto(`${service.origin}/login/`);
    await page.getByLabel('Email').fill(CORDELIA);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${service.origin}/`);
    await page.goto(`${service.origin}/accounts/`);
    expect(await page.locator('main').innerText()).toContain(CORDELIA);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${service.origin}/login/`);
    await page.close();
    const zulipInit = loadZulipJs();
    const client = await zulipInit({ realm: service.origin, username: CORDELIA, password: newPassword });
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', email: CORDELIA });
    const old = await service.request('POST', '/fetch_api_key', { params: { username: CORDELIA, password: devPassword(CORDELIA) } });
    expect(old.status).toBe(401);
  }, 180000);

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
