import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { SESSION_LIFETIME_SECONDS, sessionTokenHash } from '../../../lib/models/session';
import { devPassword } from '../../../lib/passwords';
import * as rateLimitsStore from '../../../lib/store/rate-limits';
import * as sessionsStore from '../../../lib/store/sessions';
import * as usersStore from '../../../lib/store/users';
import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { call } from '../../helpers/api';
import { withRealm } from '../../helpers/realm';
import { callPage, PageClient, pageText } from '../../helpers/web';

const INVALID_LOGIN = 'Please enter a correct email and password. Note that both fields may be case-sensitive.';
const IAGO = 'iago@zulip.com';
const cookieNamed = (setCookies: string[], name: string) => setCookies.find((c) => c.startsWith(`${name}=`));
const attemptsOf = async (username: string) => (await rateLimitsStore.getAttempts('authenticate_by_username', `2:${username}`)).times;

afterEach(() => {
  resetClock();
  delete process.env.EXTERNAL_URL;
  delete process.env.LOGIN_FAILURE_ATTEMPTS;
});

describe('GET /login/', () => {
  it('shows the login form with a label for every field and the CSRF token, never cached', async () => {
    const page = await callPage('/login/');
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect(page.markup).toContain('<title>Log in | Zulip</title>');
    expect(page.markup).toContain('<h1>Log in to Zulip</h1>');
    expect(page.markup).toContain('<label for="id_username">Email</label>');
    expect(page.markup).toContain('<input id="id_username" name="username" type="email" autocomplete="username" required autofocus>');
    expect(page.markup).toContain('<label for="id_password">Password</label>');
    expect(page.markup).toContain('<form method="post" action="/login/" name="login_form" id="login_form">');
    expect(page.markup).not.toContain('<script');
    expect(page.csrfToken).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('sets the CSRF cookie the form carries: HttpOnly, SameSite=Lax, for this host only', async () => {
    const page = await callPage('/login/');
    expect(page.setCookies).toEqual([`csrftoken=${page.csrfToken}; Path=/; HttpOnly; SameSite=Lax`]);
  });

  it('keeps a valid CSRF cookie instead of setting a new one', async () => {
    const first = await callPage('/login/');
    const again = await callPage('/login/', { cookies: { csrftoken: first.csrfToken! } });
    expect(again.csrfToken).toBe(first.csrfToken);
    expect(again.setCookies).toEqual([]);
  });

  it('marks cookies Secure when the service is served over HTTPS', async () => {
    process.env.EXTERNAL_URL = 'https://chat.example.com';
    const page = await callPage('/login/');
    expect(page.setCookies[0]).toMatch(/; Secure$/);
  });

  it('marks cookies Secure when the request came over HTTPS (API Gateway)', async () => {
    const page = await callPage('/login/', { headers: { 'x-forwarded-proto': 'https' } });
    expect(page.setCookies[0]).toMatch(/; Secure$/);
  });

  it('names the organization of the host', async () => {
    const page = await callPage('/login/', { host: 'lear.localhost:3000' });
    expect(pageText(page.body)).toContain('Lear & Co.');
  });

  it('answers 404 with upstream text at a subdomain of no organization', async () => {
    const page = await callPage('/login/', { host: 'nowhere.localhost:3000' });
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain('There is no Zulip organization hosted at this subdomain.');
    expect(page.markup).not.toContain('csrfmiddlewaretoken');
  });

  it('tells that a deactivated organization is deactivated, without a form', async () => {
    await withRealm({ deactivated: true }, async () => {
      const page = await callPage('/login/');
      expect(pageText(page.body)).toContain('The organization you are trying to join, Zulip Dev, has been deactivated.');
      expect(page.markup).not.toContain('<form');
    });
  });

  it('sends a signed-in person to the web app', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    const page = await browser.get('/login/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/');
  });
});

describe('POST /login/', () => {
  it('starts a session and sends the person to the web app', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/login/', { username: IAGO, password: devPassword(IAGO) });
    expect(result.status).toBe(302);
    expect(result.headers.Location).toBe('/');
    const cookie = cookieNamed(result.setCookies, 'sessionid')!;
    expect(cookie).toMatch(/^sessionid=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    expect(pageText((await browser.get('/accounts/')).body)).toContain('Iago');
  });

  it('stores only the hash of the session token, with the expiry as the TTL attribute', async () => {
    const browser = new PageClient();
    const before = Math.floor(Date.now() / 1000);
    await browser.logIn(IAGO, devPassword(IAGO));
    const stored = await sessionsStore.getSession(sessionTokenHash(browser.cookies.sessionid));
    expect(stored).toMatchObject({ userId: 11, realmId: 2 });
    expect(stored!.expiresAt).toBeGreaterThanOrEqual(before + SESSION_LIFETIME_SECONDS);
    expect(await sessionsStore.getSession(browser.cookies.sessionid)).toBeUndefined();
  });

  it('answers a wrong password with upstream text, keeps the email, and starts no session', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/login/', { username: IAGO, password: 'wrong' });
    expect(result.status).toBe(200);
    expect(pageText(result.body)).toContain(INVALID_LOGIN);
    expect(result.markup).toContain('role="alert"');
    expect(result.markup).toContain('value="iago@zulip.com"');
    expect(cookieNamed(result.setCookies, 'sessionid')).toBeUndefined();
    expect((await browser.get('/accounts/')).status).toBe(302);
  });

  it.each([
    ['an unknown email', 'nobody@zulip.com', 'secret'],
    ['a malformed email', 'not an email', 'secret'],
    ['an empty password', IAGO, ''],
    ['an account of another organization', 'king@lear.org', devPassword('king@lear.org')],
  ])('answers %s as a wrong password', async (_, username, password) => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/login/', { username, password });
    expect(result.status).toBe(200);
    expect(pageText(result.body)).toContain(INVALID_LOGIN);
    expect(cookieNamed(result.setCookies, 'sessionid')).toBeUndefined();
  });

  it('escapes what was typed when it shows the form again', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/login/', { username: '"><script>alert(1)</script>', password: 'x' });
    expect(result.markup).not.toContain('<script>');
    expect(result.markup).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('tells a deactivated user so, after the right password only', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const right = await browser.submit('/login/', { username: 'former@zulip.com', password: devPassword('former@zulip.com') });
    expect(pageText(right.body)).toContain(
      'Your account former@zulip.com has been deactivated. Please contact your organization administrator to reactivate it.',
    );
    expect(cookieNamed(right.setCookies, 'sessionid')).toBeUndefined();
    const wrong = await browser.submit('/login/', { username: 'former@zulip.com', password: 'wrong' });
    expect(pageText(wrong.body)).toContain(INVALID_LOGIN);
  });

  it('signs nobody in at a deactivated organization', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    await withRealm({ deactivated: true }, async () => {
      const result = await browser.submit('/login/', { username: IAGO, password: devPassword(IAGO) });
      expect(pageText(result.body)).toContain('has been deactivated');
      expect(cookieNamed(result.setCookies, 'sessionid')).toBeUndefined();
    });
  });

  it('signs in a user of the organization at its subdomain', async () => {
    const browser = new PageClient({ host: 'lear.localhost:3000' });
    await browser.logIn('king@lear.org', devPassword('king@lear.org'));
    expect(pageText((await browser.get('/accounts/')).body)).toContain('king@lear.org');
  });

  it('shares the limit of failed attempts with POST /fetch_api_key, with upstream text', async () => {
    process.env.LOGIN_FAILURE_ATTEMPTS = '2';
    freezeClock(Date.now());
    await call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params: { username: 'hamlet@zulip.com', password: 'wrong' } });
    const browser = new PageClient();
    await browser.get('/login/');
    await browser.submit('/login/', { username: 'hamlet@zulip.com', password: 'wrong' });
    const refused = await browser.submit('/login/', { username: 'hamlet@zulip.com', password: devPassword('hamlet@zulip.com') });
    expect(pageText(refused.body)).toMatch(
      /You're making too many attempts to sign in\. Try again in 1800 seconds or contact your organization administrator for help\./,
    );
    expect(cookieNamed(refused.setCookies, 'sessionid')).toBeUndefined();
    expect(await attemptsOf('hamlet@zulip.com')).toHaveLength(2);
  });

  it('answers a missing field with an error page', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/login/', { username: IAGO });
    expect(result.status).toBe(400);
    expect(pageText(result.body)).toContain("Missing 'password' argument");
  });

  it('ends the session it replaces when someone signs in again', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    const first = browser.cookies.sessionid;
    await browser.get('/accounts/');
    await browser.submit('/login/', { username: 'hamlet@zulip.com', password: devPassword('hamlet@zulip.com') });
    expect(browser.cookies.sessionid).not.toBe(first);
    expect(await sessionsStore.getSession(sessionTokenHash(first))).toBeUndefined();
    expect(pageText((await browser.get('/accounts/')).body)).toContain('hamlet@zulip.com');
  });
});

describe('CSRF protection of POST /login/', () => {
  const credentials = { username: IAGO, password: devPassword(IAGO) };

  it('refuses a POST without the CSRF cookie with 403 and changes nothing', async () => {
    const { csrfToken } = await callPage('/login/');
    const result = await callPage('/login/', { form: { ...credentials, csrfmiddlewaretoken: csrfToken! } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('CSRF verification failed. Request aborted.');
    expect(pageText(result.body)).toContain('Reason: CSRF cookie not set.');
    expect(cookieNamed(result.setCookies, 'sessionid')).toBeUndefined();
    expect(await attemptsOf(IAGO)).toEqual([]);
  });

  it('refuses a POST without the CSRF field', async () => {
    const { csrfToken } = await callPage('/login/');
    const result = await callPage('/login/', { form: credentials, cookies: { csrftoken: csrfToken! } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('Reason: CSRF token missing.');
  });

  it('refuses a field that differs from the cookie', async () => {
    const one = (await callPage('/login/')).csrfToken!;
    const other = (await callPage('/login/')).csrfToken!;
    const result = await callPage('/login/', { form: { ...credentials, csrfmiddlewaretoken: other }, cookies: { csrftoken: one } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('Reason: CSRF token incorrect.');
  });

  it('refuses a token this service did not sign, even when cookie and field agree', async () => {
    const forged = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    const result = await callPage('/login/', { form: { ...credentials, csrfmiddlewaretoken: forged }, cookies: { csrftoken: forged } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('Reason: CSRF token incorrect.');
    expect(await attemptsOf(IAGO)).toEqual([]);
  });
});

describe('sessions', () => {
  it('end after two weeks, though DynamoDB Local never deletes the item', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    advanceClock((SESSION_LIFETIME_SECONDS + 1) * 1000);
    const page = await browser.get('/accounts/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
    expect(cookieNamed(page.setCookies, 'sessionid')).toBe('sessionid=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  });

  it('end at once when the user is deactivated', async () => {
    const browser = new PageClient();
    await browser.logIn('hamlet@zulip.com', devPassword('hamlet@zulip.com'));
    const [hamlet] = await usersStore.listByEmail('hamlet@zulip.com');
    await usersStore.put({ ...hamlet, isActive: false });
    try {
      expect((await browser.get('/accounts/')).status).toBe(302);
    } finally {
      await usersStore.put(hamlet);
    }
  });

  it('end at once when the organization is deactivated', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    await withRealm({ deactivated: true }, async () => {
      expect(pageText((await browser.get('/accounts/')).body)).toContain('has been deactivated');
    });
  });

  it('are not valid at another organization host', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    const page = await callPage('/accounts/', { host: 'lear.localhost:3000', cookies: browser.cookies });
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
  });
});
