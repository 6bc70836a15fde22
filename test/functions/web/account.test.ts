import { devPassword } from '../../../lib/passwords';
import * as sessionsStore from '../../../lib/store/sessions';
import * as usersStore from '../../../lib/store/users';
import * as rateLimitsStore from '../../../lib/store/rate-limits';
import { sessionTokenHash } from '../../../lib/models/session';
import { callPage, PageClient, pageText } from '../../helpers/web';

const IAGO = 'iago@zulip.com';
const iagoKey = async () => (await usersStore.listByEmail(IAGO))[0].apiKey;

const signedIn = async (email = IAGO, host?: string): Promise<PageClient> => {
  const browser = new PageClient({ host });
  await browser.logIn(email, devPassword(email));
  await browser.get('/accounts/');
  return browser;
};

afterEach(() => {
  delete process.env.LOGIN_FAILURE_ATTEMPTS;
});

describe('GET /accounts/', () => {
  it('sends a signed-out person to the login page', async () => {
    const page = await callPage('/accounts/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
  });

  it('shows who is signed in, the log-out button and the API key form, but not the key', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    const page = await browser.get('/accounts/');
    expect(page.status).toBe(200);
    const text = pageText(page.body);
    expect(text).toContain('Name Iago');
    expect(text).toContain('Email iago@zulip.com');
    expect(text).toContain('Organization Zulip Dev (http://localhost:3000)');
    expect(text).toContain('Please re-enter your password to confirm your identity.');
    expect(page.markup).toContain('<label for="id_password">Your password</label>');
    expect(page.markup).toContain('<form method="post" action="/accounts/logout/" id="logout_form">');
    expect(page.markup).not.toContain(await iagoKey());
  });

  it('gives the signed-in person a CSRF token bound to their session', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const anonymousToken = browser.cookies.csrftoken;
    await browser.submit('/login/', { username: IAGO, password: devPassword(IAGO) });
    const page = await browser.get('/accounts/');
    expect(browser.cookies.csrftoken).not.toBe(anonymousToken);
    expect(page.csrfToken).toBe(browser.cookies.csrftoken);
  });
});

describe('POST /accounts/api_key/', () => {
  it('shows the API key and the zuliprc after the right password', async () => {
    const browser = await signedIn();
    const page = await browser.submit('/accounts/api_key/', { password: devPassword(IAGO) });
    expect(page.status).toBe(200);
    const key = await iagoKey();
    expect(page.markup).toContain(`<code class="key" id="api_key_value">${key}</code>`);
    const link =
      /<a class="button" id="download_zuliprc" download="zuliprc" href="data:application\/octet-stream;charset=utf-8,([^"]*)">Download zuliprc<\/a>/.exec(
        page.markup,
      );
    expect(decodeURIComponent(link![1])).toBe(`[api]\nemail=iago@zulip.com\nkey=${key}\nsite=http://localhost:3000\n`);
  });

  it("names the organization's own URL in the zuliprc of a subdomain's user", async () => {
    const browser = await signedIn('king@lear.org', 'lear.localhost:3000');
    const page = await browser.submit('/accounts/api_key/', { password: devPassword('king@lear.org') });
    const link = /download="zuliprc" href="data:application\/octet-stream;charset=utf-8,([^"]*)"/.exec(page.markup);
    expect(decodeURIComponent(link![1])).toContain('\nsite=http://lear.localhost:3000\n');
  });

  it('answers a wrong password with upstream text and no key', async () => {
    const browser = await signedIn();
    const page = await browser.submit('/accounts/api_key/', { password: 'wrong' });
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain('Password is incorrect.');
    expect(page.markup).not.toContain(await iagoKey());
  });

  it('counts wrong passwords against the login limit', async () => {
    const browser = await signedIn(); // a success clears the attempts before
    process.env.LOGIN_FAILURE_ATTEMPTS = '1';
    await browser.submit('/accounts/api_key/', { password: 'wrong' });
    const page = await browser.submit('/accounts/api_key/', { password: devPassword(IAGO) });
    expect(pageText(page.body)).toContain("You're making too many attempts to sign in.");
    expect(page.markup).not.toContain(await iagoKey());
  });

  it('sends a signed-out person to the login page', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const page = await browser.submit('/accounts/api_key/', { password: devPassword(IAGO) });
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
  });

  it('refuses a POST without the CSRF token and shows no key', async () => {
    const browser = await signedIn();
    const page = await callPage('/accounts/api_key/', { form: { password: devPassword(IAGO) }, cookies: browser.cookies });
    expect(page.status).toBe(403);
    expect(pageText(page.body)).toContain('Reason: CSRF token missing.');
    expect(page.markup).not.toContain(await iagoKey());
    expect((await rateLimitsStore.getAttempts('authenticate_by_username', `2:${IAGO}`)).times).toEqual([]);
  });

  it('refuses a token made before signing in (bound to no session)', async () => {
    const anonymous = (await callPage('/login/')).csrfToken!;
    const browser = await signedIn();
    const page = await callPage('/accounts/api_key/', {
      form: { password: devPassword(IAGO), csrfmiddlewaretoken: anonymous },
      cookies: { ...browser.cookies, csrftoken: anonymous },
    });
    expect(page.status).toBe(403);
    expect(pageText(page.body)).toContain('Reason: CSRF token incorrect.');
  });
});

describe('POST /accounts/logout/', () => {
  it('ends the session, removes the cookie and goes to the login page', async () => {
    const browser = await signedIn();
    const token = browser.cookies.sessionid;
    const result = await browser.submit('/accounts/logout/');
    expect(result.status).toBe(302);
    expect(result.headers.Location).toBe('/login/');
    expect(result.setCookies).toContain('sessionid=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    expect(await sessionsStore.getSession(sessionTokenHash(token))).toBeUndefined();
    const replayed = await callPage('/accounts/', { cookies: { sessionid: token } });
    expect(replayed.status).toBe(302);
  });

  it('refuses a POST without the CSRF token and keeps the session', async () => {
    const browser = await signedIn();
    const result = await callPage('/accounts/logout/', { form: {}, cookies: { sessionid: browser.cookies.sessionid } });
    expect(result.status).toBe(403);
    expect(pageText(result.body)).toContain('Reason: CSRF cookie not set.');
    expect(await sessionsStore.getSession(sessionTokenHash(browser.cookies.sessionid))).toBeDefined();
    expect((await browser.get('/accounts/')).status).toBe(200);
  });

  it('goes to the login page when nobody is signed in', async () => {
    const browser = new PageClient();
    await browser.get('/login/');
    const result = await browser.submit('/accounts/logout/');
    expect(result.status).toBe(302);
    expect(result.headers.Location).toBe('/login/');
  });
});
