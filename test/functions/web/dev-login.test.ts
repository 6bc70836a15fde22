// GET /devlogin/ and POST /accounts/login/local/: development mode's sign-in without a password,
// as upstream's dev_login.html. The session it starts is the login page's.
import { SESSION_LIFETIME_SECONDS, sessionTokenHash } from '../../../lib/models/session';
import { devPassword } from '../../../lib/passwords';
import * as sessionsStore from '../../../lib/store/sessions';
import { handler as pageFallback } from '../../../functions/fallback/not-found';
import { buildEvent } from '../../helpers/api';
import { callPage, PageClient, pageText } from '../../helpers/web';

const CSRF_LESS = { csrfmiddlewaretoken: 'x' };

/** The headings of the page's groups, each with the emails of its buttons. */
const groupsOf = (body: string): [string, string[]][] =>
  [...body.matchAll(/<h2>([^<]*)<\/h2>([\s\S]*?)(?=<h2>|<\/form>)/g)].map(([, heading, rest]) => [
    heading,
    [...rest.matchAll(/name="direct_email" value="([^"]*)"/g)].map((m) => m[1]),
  ]);

const saved = { DEVELOPMENT_MODE: process.env.DEVELOPMENT_MODE, UPLOAD_URL_SECRET: process.env.UPLOAD_URL_SECRET };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('GET /devlogin/', () => {
  it("lists the organization's active people in upstream's groups, each a button of one form with the CSRF token", async () => {
    const page = await callPage('/devlogin/');
    expect(page.status).toBe(200);
    expect(page.markup).toContain('<title>Log in | Zulip</title>');
    expect(page.markup).toContain('<h1>Click on a user to log in to Zulip Dev!</h1>');
    expect(page.markup).toContain('<form method="post" action="/accounts/login/local/" name="direct_login_form" id="direct_login_form">');
    expect(page.csrfToken).toBeDefined();
    expect(groupsOf(page.body)).toEqual([
      ['Owners', ['desdemona@zulip.com']],
      ['Administrators', ['iago@zulip.com']],
      ['Moderators', ['shiva@zulip.com']],
      ['Guest users', ['polonius@zulip.com']],
      [
        'Normal users',
        ['AARON@zulip.com', 'cordelia@zulip.com', 'hamlet@zulip.com', 'othello@zulip.com', 'prospero@zulip.com', 'ZOE@zulip.com'],
      ],
    ]);
    // Names too, so that a newcomer recognizes the people of the seeded conversations.
    expect(pageText(page.body)).toContain('Iago iago@zulip.com');
    expect(page.markup).not.toContain('<script');
  });

  it('leaves out bots, deactivated accounts and the people of other organizations', async () => {
    const page = await callPage('/devlogin/');
    for (const email of ['default-bot@zulip.com', 'webhook-bot@zulip.com', 'former@zulip.com', 'king@lear.org']) {
      expect(page.body).not.toContain(email);
    }
  });

  it("lists the accounts of the host's organization", async () => {
    const page = await callPage('/devlogin/', { host: 'lear.localhost:3000' });
    expect(page.markup).toContain('<h1>Click on a user to log in to Lear &amp; Co.!</h1>');
    expect(groupsOf(page.body)).toEqual([
      ['Owners', ['king@lear.org']],
      ['Administrators', []],
      ['Moderators', []],
      ['Guest users', []],
      ['Normal users', ['edgar@lear.org']],
    ]);
    expect(pageText(page.body)).toContain('No administrators found in this realm');
  });

  it('links back to the normal login page, which links to it', async () => {
    expect((await callPage('/devlogin/')).markup).toContain('<a href="/login/">normal login page</a>');
    expect((await callPage('/login/')).markup).toContain('<a href="/devlogin/">log in as any user, without a password</a>');
  });
});

describe('POST /accounts/login/local/', () => {
  it('starts the session the login page starts and goes to the organization’s address', async () => {
    const browser = new PageClient();
    await browser.get('/devlogin/');
    const result = await browser.submit('/accounts/login/local/', { direct_email: 'hamlet@zulip.com' });
    expect(result.status).toBe(302);
    expect(result.headers.Location).toBe('/');
    const cookie = result.setCookies.find((c) => c.startsWith('sessionid='));
    expect(cookie).toMatch(/^sessionid=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    const stored = await sessionsStore.getSession(sessionTokenHash(browser.cookies.sessionid));
    expect(stored).toMatchObject({ userId: 10, realmId: 2 });
    expect(stored!.expiresAt - stored!.createdAt).toBe(SESSION_LIFETIME_SECONDS);
    expect((await browser.get('/')).status).toBe(200);
    expect(pageText((await browser.get('/accounts/')).body)).toContain('hamlet@zulip.com');
  });

  it('finds the account whatever the case of its email', async () => {
    const browser = new PageClient();
    await browser.get('/devlogin/');
    expect((await browser.submit('/accounts/login/local/', { direct_email: 'aaron@zulip.com' })).status).toBe(302);
    expect(pageText((await browser.get('/accounts/')).body)).toContain('AARON@zulip.com');
  });

  it('ends the session it replaces', async () => {
    const browser = new PageClient();
    await browser.logIn('iago@zulip.com', devPassword('iago@zulip.com'));
    const before = browser.cookies.sessionid;
    await browser.get('/devlogin/');
    await browser.submit('/accounts/login/local/', { direct_email: 'cordelia@zulip.com' });
    expect(browser.cookies.sessionid).not.toBe(before);
    expect(await sessionsStore.getSession(sessionTokenHash(before))).toBeUndefined();
    expect(pageText((await browser.get('/accounts/')).body)).toContain('cordelia@zulip.com');
  });

  it.each([
    ['an unknown email', 'nobody@zulip.com'],
    ['a deactivated account', 'former@zulip.com'],
    ['a bot', 'default-bot@zulip.com'],
    ["another organization's account", 'king@lear.org'],
  ])('refuses %s with the page and an alert, and starts no session', async (_, email) => {
    const browser = new PageClient();
    await browser.get('/devlogin/');
    const result = await browser.submit('/accounts/login/local/', { direct_email: email });
    expect(result.status).toBe(400);
    expect(result.markup).toContain(`<div class="alert" role="alert"><div>No active account ${email} in Zulip Dev.</div></div>`);
    expect(result.setCookies.some((c) => c.startsWith('sessionid='))).toBe(false);
  });

  it('refuses a form without the CSRF token, as every page', async () => {
    const result = await callPage('/accounts/login/local/', { form: { direct_email: 'iago@zulip.com' } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('CSRF verification failed. Request aborted.');
  });
});

describe('outside development mode', () => {
  const unknownPage = async () => pageFallback({ ...(await buildEvent({ method: 'GET' })), rawPath: '/nope/' }, {} as never);

  it.each([['off'], [''], ['yes']])('answers both routes with the 404 page of an unknown path (DEVELOPMENT_MODE=%j)', async (value) => {
    process.env.DEVELOPMENT_MODE = value;
    const expected = await unknownPage();
    expect(expected.statusCode).toBe(404);
    for (const page of [
      await callPage('/devlogin/'),
      // Before any CSRF check: nothing tells the route exists.
      await callPage('/accounts/login/local/', { form: { direct_email: 'iago@zulip.com', ...CSRF_LESS } }),
    ]) {
      expect({ status: page.status, headers: page.headers, body: page.body, cookies: page.setCookies }).toEqual({
        status: 404,
        headers: expected.headers,
        body: expected.body,
        cookies: [],
      });
    }
  });

  it('has no link to it on the login page', async () => {
    process.env.DEVELOPMENT_MODE = 'off';
    // Outside development mode the CSRF tokens' key must be set.
    process.env.UPLOAD_URL_SECRET = 'a'.repeat(64);
    const page = await callPage('/login/');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('/devlogin/');
  });
});
