import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { doCreateUser } from '../../../lib/actions/people/create';
import { doDeactivateUser } from '../../../lib/actions/people/deactivation';
import { PASSWORD_RESET_LINK_VALID_SECONDS } from '../../../lib/actions/way-in/password-reset';
import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { Role, type User } from '../../../lib/models/user';
import { hashPassword } from '../../../lib/passwords';
import { listLocalSentEmails, type SentEmail } from '../../../lib/store/emails';
import * as passwordResetsStore from '../../../lib/store/password-resets';
import * as passwordsStore from '../../../lib/store/passwords';
import * as realmsStore from '../../../lib/store/realms';
import { call } from '../../helpers/api';
import { callPage, PageClient, pageText } from '../../helpers/web';

// Addresses of this file only: the local SES store is shared by every test file of the run.
const DOMAIN = 'reset.example.com';
let counter = 0;
const freshEmail = () => `reset${Date.now().toString(36)}x${(counter += 1)}@${DOMAIN}`;
const OLD_PASSWORD = 'the old password';
const NEW_PASSWORD = 'a brand new password';
const INVALID_LINK = 'Sorry, the link you provided is invalid or has already been used.';

afterEach(() => {
  resetClock();
  delete process.env.PASSWORD_RESET_EMAIL_ATTEMPTS;
});

const newUser = async (): Promise<User> => {
  const realm = (await realmsStore.get(2))!;
  return doCreateUser(realm, { email: freshEmail(), fullName: 'Reset Tester', role: Role.MEMBER, password: OLD_PASSWORD });
};

const emailsTo = async (address: string): Promise<SentEmail[]> =>
  ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(address));

/** Asks for a reset of `email` with the form, as a browser without JavaScript. */
const askReset = async (email: string) => {
  const browser = new PageClient();
  await browser.get('/accounts/password/reset/');
  return browser.submit('/accounts/password/reset/', { email });
};

/** The path of the reset link in the newest email to `address`. */
const resetPathFor = async (address: string): Promise<string> => {
  const [newest] = await emailsTo(address);
  const link = /https?:\/\/\S+\/accounts\/password\/reset\/[a-z0-9]{24}\//.exec(newest.text)?.[0];
  if (!link) throw new Error(`no reset link in: ${newest.text}`);
  return new URL(link).pathname;
};

const logsInWith = async (email: string, password: string): Promise<boolean> =>
  (await call(fetchApiKey, { method: 'POST', path: '/fetch_api_key', params: { username: email, password } })).status === 200;

/** Opens a reset link and submits the new password twice. */
const setPassword = async (resetPath: string, password1: string, password2 = password1) => {
  const browser = new PageClient();
  const form = await browser.get(resetPath);
  expect(form.status).toBe(200);
  return browser.submit(resetPath, { new_password1: password1, new_password2: password2 });
};

describe('GET /login/', () => {
  it('links to the password reset page', async () => {
    const page = await callPage('/login/');
    expect(page.markup).toContain('<a href="/accounts/password/reset/">Forgot your password?</a>');
  });
});

describe('GET /accounts/password/reset/', () => {
  it('asks the email in a labelled field of a CSRF-protected form, without scripts', async () => {
    const page = await callPage('/accounts/password/reset/');
    expect(page.status).toBe(200);
    expect(page.markup).toContain('<title>Reset your password | Zulip</title>');
    expect(page.markup).toContain('<label for="id_email">Email</label>');
    expect(page.markup).toContain('<form method="post" action="/accounts/password/reset/" name="password_reset" id="password_reset">');
    expect(page.csrfToken).toBeDefined();
    expect(page.markup).not.toContain('<script');
    expect(pageText(page.body)).toContain("we'll send a link to reset your password to the email you signed up with.");
  });
});

describe('POST /accounts/password/reset/', () => {
  it('sends an active account a one-time link to its organization and says to check the email', async () => {
    const user = await newUser();
    const page = await askReset(user.email);
    expect(page.status).toBe(200);
    expect(page.markup).toContain('<title>Check your email | Zulip</title>');
    const [email] = await emailsTo(user.email);
    expect(email.subject).toBe('Password reset request for Zulip Dev');
    expect(email.text).toContain(
      `Somebody (possibly you) requested a new password for the Zulip account ${user.email} on http://localhost:3000.`,
    );
    expect(email.html).toContain('>Reset password</a>');
    const key = (await resetPathFor(user.email)).split('/')[4];
    expect(await passwordResetsStore.getPasswordResetKey(key)).toMatchObject({ realmId: 2, userId: user.id });
  });

  it('answers the same page for an address of no account, and that email says there is none', async () => {
    const user = await newUser();
    const known = await askReset(user.email);
    const unknownAddress = freshEmail();
    const unknown = await askReset(unknownAddress);
    expect(unknown.status).toBe(known.status);
    expect(pageText(unknown.body).replace(unknownAddress, 'X')).toBe(pageText(known.body).replace(user.email, 'X'));
    const [email] = await emailsTo(unknownAddress);
    expect(email.text).toContain('You do not have an account in that Zulip organization.');
    expect(email.text).not.toContain('/accounts/password/reset/');
  });

  it('tells a deactivated account whom to ask, with no link', async () => {
    const user = await newUser();
    await doDeactivateUser((await realmsStore.get(2))!, user);
    const page = await askReset(user.email);
    expect(page.status).toBe(200);
    const [email] = await emailsTo(user.email);
    expect(email.text).toContain('but it has been deactivated. You can contact an organization administrator to reactivate your account.');
    expect(email.text).not.toContain('/accounts/password/reset/');
  });

  it('sends nothing past the address limit, and says the same', async () => {
    process.env.PASSWORD_RESET_EMAIL_ATTEMPTS = '1';
    const user = await newUser();
    const first = await askReset(user.email);
    const second = await askReset(user.email.toUpperCase());
    expect(second.status).toBe(200);
    expect(pageText(second.body).replace(user.email.toUpperCase(), 'X')).toBe(pageText(first.body).replace(user.email, 'X'));
    expect(await emailsTo(user.email)).toHaveLength(1);
  });

  it.each([
    ['', 'This field is required.'],
    ['not an address', 'Enter a valid email address.'],
  ])('shows the form again for %p: %s, and sends nothing', async (email, error) => {
    const before = ((await listLocalSentEmails()) ?? []).length;
    const page = await askReset(email);
    expect(page.status).toBe(400);
    expect(pageText(page.body)).toContain(error);
    expect(((await listLocalSentEmails()) ?? []).length).toBe(before);
  });

  it('refuses a form without the CSRF token, and sends nothing', async () => {
    const user = await newUser();
    const page = await callPage('/accounts/password/reset/', { form: { email: user.email } });
    expect(page.status).toBe(403);
    expect(await emailsTo(user.email)).toEqual([]);
  });
});

describe('/accounts/password/reset/<key>/', () => {
  it('asks the new password twice for the account of the link', async () => {
    const user = await newUser();
    await askReset(user.email);
    const page = await callPage(await resetPathFor(user.email));
    expect(page.status).toBe(200);
    expect(page.markup).toContain('<label for="id_new_password1">Password</label>');
    expect(page.markup).toContain('<label for="id_new_password2">Confirm password</label>');
    expect(pageText(page.body)).toContain(user.email);
  });

  it('sets the new password, says where to log in, and the link works no more', async () => {
    const user = await newUser();
    await askReset(user.email);
    const resetPath = await resetPathFor(user.email);
    const done = await setPassword(resetPath, NEW_PASSWORD);
    expect(done.status).toBe(200);
    expect(pageText(done.body)).toContain('Your password has been reset.');
    expect(done.markup).toContain('<a class="button" id="login_link" href="/login/">Log in</a>');
    expect(await logsInWith(user.email, NEW_PASSWORD)).toBe(true);
    expect(await logsInWith(user.email, OLD_PASSWORD)).toBe(false);
    const again = await callPage(resetPath);
    expect(again.status).toBe(404);
    expect(pageText(again.body)).toContain(INVALID_LINK);
    expect(again.markup).toContain('<a href="/accounts/password/reset/">Ask for a new link</a>');
  });

  it('signs out the sessions the account had before the reset', async () => {
    const user = await newUser();
    const signedIn = new PageClient();
    await signedIn.logIn(user.email, OLD_PASSWORD);
    expect((await signedIn.get('/accounts/')).status).toBe(200);
    await askReset(user.email);
    expect((await setPassword(await resetPathFor(user.email), NEW_PASSWORD)).status).toBe(200);
    const after = await signedIn.get('/accounts/');
    expect(after.status).toBe(302);
    expect(after.headers.Location).toBe('/login/');
  });

  it.each([
    ['two different passwords', NEW_PASSWORD, `${NEW_PASSWORD}!`, 'The two password fields didn’t match.'],
    ['a weak password', 'abc', 'abc', 'The password is too weak.'],
    ['an empty password', '', '', 'This field is required.'],
  ])('refuses %s and keeps the password and the link', async (_, password1, password2, error) => {
    const user = await newUser();
    await askReset(user.email);
    const resetPath = await resetPathFor(user.email);
    const page = await setPassword(resetPath, password1, password2);
    expect(page.status).toBe(400);
    expect(pageText(page.body)).toContain(error);
    expect(await logsInWith(user.email, OLD_PASSWORD)).toBe(true);
    expect((await callPage(resetPath)).status).toBe(200);
  });

  it('refuses an expired link and keeps the password', async () => {
    freezeClock(Date.now());
    const user = await newUser();
    await askReset(user.email);
    const resetPath = await resetPathFor(user.email);
    advanceClock((PASSWORD_RESET_LINK_VALID_SECONDS + 1) * 1000);
    const browser = new PageClient();
    const page = await browser.get(resetPath);
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain(INVALID_LINK);
    await browser.get('/accounts/password/reset/'); // a page with a form, for the CSRF token
    const posted = await browser.submit(resetPath, { new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD });
    expect(posted.status).toBe(404);
    resetClock();
    expect(await logsInWith(user.email, OLD_PASSWORD)).toBe(true);
  });

  it('refuses a link issued before the password changed', async () => {
    const user = await newUser();
    await askReset(user.email);
    const resetPath = await resetPathFor(user.email);
    await passwordsStore.putPasswordHash(user.id, await hashPassword('changed meanwhile'));
    expect((await callPage(resetPath)).status).toBe(404);
  });

  it('refuses the older of two links once the newer one was used', async () => {
    const user = await newUser();
    await askReset(user.email);
    const older = await resetPathFor(user.email);
    await askReset(user.email);
    const newer = await resetPathFor(user.email);
    expect(newer).not.toBe(older);
    expect((await setPassword(newer, NEW_PASSWORD)).status).toBe(200);
    expect((await callPage(older)).status).toBe(404);
  });

  it('refuses the link at another organization', async () => {
    const user = await newUser();
    await askReset(user.email);
    const page = await callPage(await resetPathFor(user.email), { host: 'lear.localhost:3000' });
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain(INVALID_LINK);
  });

  it.each([['tooshort'], ['a'.repeat(24)], ['x'.repeat(3000)]])('answers the invalid link page for the key %#', async (key) => {
    const page = await callPage(`/accounts/password/reset/${key}/`);
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain(INVALID_LINK);
  });
});
