// The way in, in a real browser (headless Chromium) over HTTP through serverless-offline as
// `npm start` serves it: `npm run create-realm-link` prints a link, the new-organization page
// creates an organization at its subdomain, its owner invites someone by email (POST /invites),
// the invitation is read on /emails/, its link opens the sign-up page, and the new account signs
// in with zulip-js and its new password. Screenshots of every page (CHAT_SCREENSHOTS).
import { execFile } from 'node:child_process';
import dns from 'node:dns';
import { promisify } from 'node:util';
import { useBrowser } from '../helpers/browser';
import { loadZulipJs, useLocalService } from '../helpers/e2e';

const service = useLocalService();
const browser = useBrowser();

// Browsers resolve every *.localhost name to this machine (RFC 6761), which is how an
// organization's subdomain is served locally; Node's resolver does not, so the test's own HTTP
// calls (fetch, zulip-js) resolve them as the browser does.
const originalLookup = dns.lookup;
beforeAll(() => {
  (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) =>
    (originalLookup as (...args: unknown[]) => unknown)(host.endsWith('.localhost') ? 'localhost' : host, ...rest);
});
afterAll(() => {
  (dns as { lookup: unknown }).lookup = originalLookup;
});

const basic = (email: string, apiKey: string) => `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

describe('e2e: the way in', () => {
  it('creates an organization from the link, invites someone by email, and the invitee signs up and signs in', async () => {
    const port = new URL(service.origin).port;
    const subdomain = `acme${Date.now().toString(36)}`;
    const realmOrigin = `http://${subdomain}.localhost:${port}`;
    const owner = { email: 'owner@acme.example.com', password: 'owner password 1' };
    const invitee = { email: 'newcomer@acme.example.com', password: 'newcomer password 1' };

    // The operator's command, against the service's tables.
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/create-realm-link.ts'], {
      env: { ...process.env, EXTERNAL_URL: service.origin },
    });
    const link = stdout.trim().split('\n').pop()!;
    expect(link).toMatch(new RegExp(`^${service.origin}/new/[a-z0-9]{24}/$`));

    const page = await browser.newPage();
    await page.goto(link);
    expect(await page.title()).toBe('Create a new organization | Zulip');
    await page.getByLabel('Organization name').fill('Acme Corp');
    await page.getByLabel('Organization URL').fill(subdomain);
    await page.getByLabel('Your email').fill(owner.email);
    await page.getByLabel('Your name').fill('Acme Owner');
    await page.getByLabel('Password').fill(owner.password);
    await browser.screenshot(page, 'way-in-1-new-organization');
    // Creating an organization writes a few hundred items: DynamoDB Local on a loaded machine takes its time.
    await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST', { timeout: 120000 }),
      page.getByRole('button', { name: 'Create organization' }).click(),
    ]);
    await page.waitForLoadState();
    await browser.screenshot(page, 'way-in-2-organization-created');
    expect(await page.locator('main').innerText()).toContain('Acme Corp is ready');
    expect(await page.locator('#realm_url').innerText()).toContain(`${subdomain}.localhost`);

    // Its one-time link signs the owner in at the organization (as this test serves it).
    const continueHref = await page.locator('#continue_link').getAttribute('href');
    expect(continueHref).toMatch(new RegExp(`^https?://${subdomain}\\.[^/]+/accounts/login/subdomain/[A-Za-z0-9_-]{43}/$`));
    await page.goto(`${realmOrigin}${new URL(continueHref!).pathname}`);
    expect(await page.locator('main').innerText()).toContain('You are signed in as Acme Owner');
    await browser.screenshot(page, 'way-in-2b-owner-signed-in');
    await page.goto(`${realmOrigin}/accounts/`);
    expect(await page.locator('main').innerText()).toContain(owner.email);

    // The owner invites someone by email through the API, at the organization's subdomain.
    const fetched = await fetch(`${realmOrigin}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: owner.email, password: owner.password }),
    });
    expect(fetched.status).toBe(200);
    const { api_key: ownerKey } = (await fetched.json()) as { api_key: string };
    const invited = await fetch(`${realmOrigin}/api/v1/invites`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(owner.email, ownerKey) },
      body: new URLSearchParams({ invitee_emails: invitee.email, stream_ids: '[]' }),
    });
    expect(await invited.json()).toMatchObject({ result: 'success' });

    // The invitation email on /emails/ (development mode), with its /join/<key>/ link.
    await page.goto(`${service.origin}/emails/`);
    const email = page.locator('article', { hasText: invitee.email }).first();
    const joinHref = await email.locator('a[href*="/join/"]').first().getAttribute('href');
    expect(joinHref).toMatch(new RegExp(`^https?://${subdomain}\\.[^/]+/join/[a-z0-9]{24}/$`));
    await browser.screenshot(page, 'way-in-3-emails');

    // The link's organization as this test serves it (its host and port, not EXTERNAL_URL's).
    await page.goto(`${realmOrigin}${new URL(joinHref!).pathname}`);
    expect(await page.locator('h1').innerText()).toBe('Sign up for Acme Corp');
    expect(await page.locator('#invited_email').innerText()).toBe(invitee.email);
    await page.getByLabel('Name').fill('New Comer');
    await page.getByLabel('Password').fill(invitee.password);
    await browser.screenshot(page, 'way-in-4-sign-up');
    await page.getByRole('button', { name: 'Sign up' }).click({ timeout: 60000 });
    await page.locator('h1', { hasText: 'Welcome to Acme Corp' }).waitFor({ timeout: 60000 });
    await browser.screenshot(page, 'way-in-5-welcome');

    // Signed in on the web: the account page.
    await page.goto(`${realmOrigin}/accounts/`);
    expect(await page.locator('main').innerText()).toContain(invitee.email);
    await browser.screenshot(page, 'way-in-6-account');
    await page.close();

    // And with zulip-js and the new password.
    const zulipInit = loadZulipJs();
    const client = await zulipInit({ realm: realmOrigin, username: invitee.email, password: invitee.password });
    const profile = await client.users.me.getProfile();
    expect(profile).toMatchObject({
      result: 'success',
      email: invitee.email,
      full_name: 'New Comer',
      role: 400,
    });

    // The owner deactivates the new account: its API key and its web session stop working at once.
    const asOwner = (method: string, path: string) =>
      fetch(`${realmOrigin}/api/v1${path}`, { method, headers: { authorization: basic(owner.email, ownerKey) } });
    expect(await (await asOwner('DELETE', `/users/${profile.user_id}`)).json()).toMatchObject({ result: 'success' });
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'error', code: 'USER_DEACTIVATED' });
    const refused = await browser.newPage();
    await refused.goto(`${realmOrigin}/accounts/`);
    expect(await refused.title()).toBe('Log in | Zulip');
    await refused.getByLabel('Email').fill(invitee.email);
    await refused.getByLabel('Password').fill(invitee.password);
    await refused.getByRole('button', { name: 'Log in' }).click();
    await refused.locator('[role="alert"]').waitFor({ timeout: 60000 });
    expect(await refused.locator('main').innerText()).toContain(`Your account ${invitee.email} has been deactivated.`);
    await browser.screenshot(refused, 'way-in-7-deactivated');

    // Reactivated, it signs in again, on the web and with zulip-js.
    expect(await (await asOwner('POST', `/users/${profile.user_id}/reactivate`)).json()).toMatchObject({ result: 'success' });
    await refused.getByLabel('Password').fill(invitee.password);
    await refused.getByRole('button', { name: 'Log in' }).click();
    await refused.waitForURL(`${realmOrigin}/`, { timeout: 60000 });
    await refused.goto(`${realmOrigin}/accounts/`);
    expect(await refused.locator('main').innerText()).toContain(invitee.email);
    await refused.close();
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', email: invitee.email });
  }, 400000);
});
