// Signing up without an invitation (/register/): an organization that requires invitations says so
// and sends nothing; one that does not emails a confirmation link to an admitted address, and the
// link's page creates a member with the default channels, once.
import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as listInvites } from '../../../functions/invites/list';
import { doSetRealmProperty } from '../../../lib/actions/organization/settings';
import { INVITATION_REQUIRED } from '../../../lib/actions/way-in/sign-up';
import { Role } from '../../../lib/models/user';
import * as defaultChannelsStore from '../../../lib/store/default-channels';
import { listLocalSentEmails, type SentEmail } from '../../../lib/store/emails';
import * as invitesStore from '../../../lib/store/invites';
import * as channelsStore from '../../../lib/store/channels';
import * as usersStore from '../../../lib/store/users';
import { call, expectSuccess } from '../../helpers/api';
import { PageClient, pageText } from '../../helpers/web';

const ZULIP = 2;
// Addresses of this file only: the local SES store is shared by every test file of the run.
const DOMAIN = 'signup.example.com';
let counter = 0;
const freshEmail = () => `signer${Date.now().toString(36)}x${(counter += 1)}@${DOMAIN}`;

const emailsTo = async (address: string): Promise<SentEmail[]> =>
  ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(address));

/** Asks to sign up with the form, as a browser without JavaScript. */
const askSignUp = async (email: string) => {
  const browser = new PageClient();
  // The login page's form gives the CSRF token when the sign-up page has no form (invitations required).
  await browser.get('/login/');
  await browser.get('/register/');
  return browser.submit('/register/', { email });
};

afterEach(async () => {
  await doSetRealmProperty(ZULIP, 'invite_required', true);
  delete process.env.SIGN_UP_EMAIL_ATTEMPTS;
});

describe('/register/ of an organization that requires invitations', () => {
  it('says an invitation is needed, offers no form, and sends nothing for a POST', async () => {
    const page = await new PageClient().get('/register/');
    expect(page.status).toBe(200);
    expect(pageText(page.body)).toContain(INVITATION_REQUIRED);
    expect(page.body).not.toContain('name="email"');
    const email = freshEmail();
    const before = await invitesStore.listEmailInvitesOfRealm(ZULIP);
    const refused = await askSignUp(email);
    expect(refused.status).toBe(400);
    expect(pageText(refused.body)).toContain(INVITATION_REQUIRED);
    expect(await emailsTo(email)).toEqual([]);
    expect(await invitesStore.listEmailInvitesOfRealm(ZULIP)).toEqual(before);
    // The login page offers no sign-up.
    expect((await new PageClient().get('/login/')).body).not.toContain('href="/register/"');
  });
});

describe('/register/ of an organization open to sign-ups', () => {
  beforeEach(async () => {
    await doSetRealmProperty(ZULIP, 'invite_required', false);
  });

  it('emails a confirmation link whose page creates a member with the default channels, once', async () => {
    expect((await new PageClient().get('/login/')).body).toContain('href="/register/"');
    const email = freshEmail();
    const sent = await askSignUp(email);
    expect(sent.status).toBe(200);
    expect(pageText(sent.body)).toContain('To complete your sign-up, check your email account');
    expect(sent.body).toContain(`<strong id="signup_email">${email}</strong>`);
    const [confirmation] = await emailsTo(email);
    expect(confirmation.subject).toBe('Activate your Zulip account');
    const link = /https?:\/\/\S+\/join\/[a-z0-9]{24}\//.exec(confirmation.text)![0];

    // Nobody's invitation: GET /invites lists none for it.
    const stored = (await invitesStore.listEmailInvitesOfRealm(ZULIP)).find((i) => i.email === email)!;
    expect(stored).toMatchObject({ referredBy: null, invitedAs: Role.MEMBER, includeRealmDefaultSubscriptions: true });
    const listed = expectSuccess(await call(listInvites, { method: 'GET', path: '/invites', as: 'iago@zulip.com' }));
    expect((listed.invites as { email?: string }[]).filter((i) => i.email === email)).toEqual([]);

    const browser = new PageClient();
    const form = await browser.get(new URL(link).pathname);
    expect(pageText(form.body)).toContain(`You are signing up as ${email} .`);
    const joined = await browser.submit(new URL(link).pathname, { full_name: 'Self Signer', password: 'a good password' });
    expect(joined.status).toBe(200);
    const user = (await usersStore.getByEmail(ZULIP, email))!;
    expect(user).toMatchObject({ fullName: 'Self Signer', role: Role.MEMBER, isActive: true });
    const defaults = await defaultChannelsStore.listDefaultChannelIds(ZULIP, { consistent: true });
    const subscribed = (await channelsStore.listSubscriptionsOfUser(user.id)).map((s) => s.channelId);
    expect(subscribed).toEqual(expect.arrayContaining(defaults));
    const login = await call(fetchApiKey, {
      method: 'POST',
      path: '/fetch_api_key',
      params: { username: email, password: 'a good password' },
    });
    expect(login.status).toBe(200);
    // The link works once.
    const again = await new PageClient().get(new URL(link).pathname);
    expect(pageText(again.body)).not.toContain('You are signing up as');
  });

  it.each([
    ['an empty address', '', 'This field is required.'],
    ['a malformed address', 'not-an-address', 'Enter a valid email address.'],
    ["an existing account's address", 'hamlet@zulip.com', 'Email is already in use.'],
  ])('refuses %s with the form error, sending nothing', async (_what, email, error) => {
    const before = await invitesStore.listEmailInvitesOfRealm(ZULIP);
    const page = await askSignUp(email);
    expect(page.status).toBe(400);
    expect(pageText(page.body)).toContain(error);
    expect(await invitesStore.listEmailInvitesOfRealm(ZULIP)).toEqual(before);
    if (email !== '') expect(await emailsTo(email)).toEqual([]);
  });

  it('sends at most the limit of emails per address, answering the same page past it', async () => {
    process.env.SIGN_UP_EMAIL_ATTEMPTS = '1';
    const email = freshEmail();
    expect((await askSignUp(email)).status).toBe(200);
    const second = await askSignUp(email);
    expect(second.status).toBe(200);
    expect(pageText(second.body)).toContain('for a confirmation email');
    expect(await emailsTo(email)).toHaveLength(1);
  });
});
