import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { generateConfirmationKey, type EmailInvite, type MultiuseInvite } from '../../../lib/models/invite';
import { Role } from '../../../lib/models/user';
import { allocateIds } from '../../../lib/store/common';
import * as channelsStore from '../../../lib/store/channels';
import * as invitesStore from '../../../lib/store/invites';
import * as usersStore from '../../../lib/store/users';
import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { handler as listMessages } from '../../../functions/messages/list';
import { welcomeMessageContent } from '../../../lib/actions/people/create';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectSuccess } from '../../helpers/api';
import { PageClient, callPage, pageText } from '../../helpers/web';

const ZULIP = 2;
const IAGO = 11;
const VERONA = 3;
let counter = 0;
const freshEmail = () => `joiner${Date.now()}x${(counter += 1)}@zulip.com`;

afterEach(() => resetClock());

const emailInvite = async (overrides: Partial<EmailInvite> = {}): Promise<EmailInvite> => {
  const invite: EmailInvite = {
    id: await allocateIds('emailInvite'),
    realmId: ZULIP,
    email: freshEmail(),
    referredBy: IAGO,
    invitedAs: Role.MODERATOR,
    streamIds: [VERONA],
    groupIds: [],
    includeRealmDefaultSubscriptions: true,
    notifyReferrerOnJoin: true,
    dateCreated: Math.floor(Date.now() / 1000),
    expiryDate: Math.floor(Date.now() / 1000) + 3600,
    confirmationKey: generateConfirmationKey(),
    ...overrides,
  };
  await invitesStore.putEmailInvites([invite]);
  return invite;
};

const multiuseInvite = async (overrides: Partial<MultiuseInvite> = {}): Promise<MultiuseInvite> => {
  const invite: MultiuseInvite = {
    id: await allocateIds('multiuseInvite'),
    realmId: ZULIP,
    referredBy: IAGO,
    invitedAs: Role.MEMBER,
    streamIds: [],
    dateCreated: Math.floor(Date.now() / 1000),
    expiryDate: null,
    status: 'active',
    confirmationKey: generateConfirmationKey(),
    ...overrides,
  };
  await invitesStore.putInvite(invite);
  return invite;
};

const signUp = async (key: string, form: Record<string, string>) => {
  const browser = new PageClient();
  const page = await browser.get(`/join/${key}/`);
  expect(page.status).toBe(200);
  return { browser, result: await browser.submit(`/join/${key}/`, form) };
};

describe('GET /join/<key>/', () => {
  it('asks the name and password of an email invitation, with labels, and names the invited address', async () => {
    const invite = await emailInvite();
    const page = await callPage(`/join/${invite.confirmationKey}/`);
    expect(page.status).toBe(200);
    expect(page.markup).toContain('<label for="id_full_name">Name</label>');
    expect(page.markup).toContain('<label for="id_password">Password</label>');
    expect(page.markup).not.toContain('id="id_email"');
    expect(pageText(page.body)).toContain(`You were invited as ${invite.email}`);
    expect(page.csrfToken).toBeDefined();
  });

  it('asks the email too for a reusable link', async () => {
    const invite = await multiuseInvite();
    const page = await callPage(`/join/${invite.confirmationKey}/`);
    expect(page.markup).toContain('<label for="id_email">Email</label>');
  });

  it.each([
    ['a key of the wrong length', 'abc', 'Whoops. The confirmation link is malformed.'],
    ['an unknown key', 'a'.repeat(24), "Whoops. We couldn't find your confirmation link in the system."],
  ])('answers %s with upstream page (404)', async (_case, key, text) => {
    const page = await callPage(`/join/${key}/`);
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain(text);
    expect(page.markup).not.toContain('<form method="post" action="/join/');
  });

  it('treats an invitation of another organization as unknown', async () => {
    const invite = await emailInvite();
    const page = await callPage(`/join/${invite.confirmationKey}/`, { host: 'lear.localhost:3000' });
    expect(page.status).toBe(404);
    expect(pageText(page.body)).toContain("Whoops. We couldn't find your confirmation link in the system.");
  });

  it('answers an expired email invitation and a revoked link with the expired page', async () => {
    const expired = await emailInvite({ expiryDate: Math.floor(Date.now() / 1000) - 1 });
    const revoked = await multiuseInvite({ status: 'revoked' });
    for (const key of [expired.confirmationKey, revoked.confirmationKey]) {
      const page = await callPage(`/join/${key}/`);
      expect(page.status).toBe(404);
      expect(pageText(page.body)).toContain('Whoops. The confirmation link has expired or been deactivated.');
    }
  });

  it('answers a link that expired while the form was open, when it is submitted', async () => {
    const invite = await emailInvite({ expiryDate: Math.floor(Date.now() / 1000) + 60 });
    const browser = new PageClient();
    await browser.get(`/join/${invite.confirmationKey}/`);
    freezeClock(Date.now());
    advanceClock(120_000);
    const page = await browser.submit(`/join/${invite.confirmationKey}/`, { full_name: 'Late Person', password: 'a good password' });
    expect(page.status).toBe(404);
    expect(await usersStore.getByEmail(ZULIP, invite.email)).toBeUndefined();
  });
});

describe('POST /join/<key>/', () => {
  it('creates the account of an email invitation with its role and channels, signs it in, and says where to go', async () => {
    const invite = await emailInvite();
    const { browser, result } = await signUp(invite.confirmationKey, { full_name: 'New Person', password: 'a good password' });
    expect(result.status).toBe(200);
    const text = pageText(result.body);
    expect(text).toContain('Welcome to Zulip Dev');
    expect(text).toContain('http://localhost:3000');
    expect(text).toContain('~/.zuliprc');
    const user = await usersStore.getByEmail(ZULIP, invite.email);
    expect(user).toMatchObject({ fullName: 'New Person', role: Role.MODERATOR, isActive: true });
    const subs = await channelsStore.listSubscriptionsOfUser(user!.id);
    expect(subs.filter((s) => s.active).map((s) => s.channelId)).toContain(VERONA);
    // Signed in: the account page shows the new person.
    const account = await browser.get('/accounts/');
    expect(account.status).toBe(200);
    expect(pageText(account.body)).toContain('New Person');
    // And the password works for the API.
    const fetched = await call(fetchApiKey, { method: 'POST', params: { username: invite.email, password: 'a good password' } });
    expect(fetched.status).toBe(200);
  });

  it("gives the new account Welcome Bot's welcome direct message, unread", async () => {
    const invite = await emailInvite();
    await signUp(invite.confirmationKey, { full_name: 'Welcomed Person', password: 'a good password' });
    const user = (await usersStore.getByEmail(ZULIP, invite.email))!;
    const body = expectSuccess(
      await call(listMessages, {
        method: 'GET',
        path: '/messages',
        as: invite.email,
        params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false },
      }),
    );
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]).toMatchObject({
      sender_email: 'welcome-bot@zulip.com',
      sender_full_name: 'Welcome Bot',
      type: 'private',
      content: welcomeMessageContent((await realmsStore.get(ZULIP))!, user),
    });
    expect(body.messages[0].content).toMatch(/^Hello, and welcome to Zulip!👋/);
    expect(body.messages[0].flags).not.toContain('read');
  });

  it('refuses a second use of an email invitation with the expired page', async () => {
    const invite = await emailInvite();
    await signUp(invite.confirmationKey, { full_name: 'Once Person', password: 'a good password' });
    const again = await callPage(`/join/${invite.confirmationKey}/`);
    expect(again.status).toBe(404);
    expect(pageText(again.body)).toContain('Whoops. The confirmation link has expired or been deactivated.');
  });

  it('shows the form again with the errors and creates nothing for a bad name and a short password', async () => {
    const invite = await emailInvite();
    const { result } = await signUp(invite.confirmationKey, { full_name: '', password: 'abc' });
    expect(result.status).toBe(400);
    const text = pageText(result.body);
    expect(text).toContain('Name too short!');
    expect(text).toContain('The password is too weak.');
    expect(await usersStore.getByEmail(ZULIP, invite.email)).toBeUndefined();
    // The invitation still works.
    expect((await callPage(`/join/${invite.confirmationKey}/`)).status).toBe(200);
  });

  it('creates accounts from a reusable link, each with its own email, and the link keeps working', async () => {
    const invite = await multiuseInvite();
    const first = freshEmail();
    const second = freshEmail();
    expect(
      (await signUp(invite.confirmationKey, { email: first, full_name: 'First Joiner', password: 'a good password' })).result.status,
    ).toBe(200);
    expect(
      (await signUp(invite.confirmationKey, { email: second, full_name: 'Second Joiner', password: 'a good password' })).result.status,
    ).toBe(200);
    expect(await usersStore.getByEmail(ZULIP, first)).toMatchObject({ role: Role.MEMBER });
    expect(await usersStore.getByEmail(ZULIP, second)).toMatchObject({ role: Role.MEMBER });
  });

  it.each([
    ['an email in use', 'iago@zulip.com', 'Email is already in use.'],
    ['an invalid email', 'not-an-email', 'Enter a valid email address.'],
    ['no email', '', 'This field is required.'],
  ])('refuses %s on a reusable link, creating nothing', async (_case, email, text) => {
    const invite = await multiuseInvite();
    const before = (await usersStore.listOfRealm(ZULIP)).length;
    const { result } = await signUp(invite.confirmationKey, { email, full_name: 'Some Person', password: 'a good password' });
    expect(result.status).toBe(400);
    expect(pageText(result.body)).toContain(text);
    expect((await usersStore.listOfRealm(ZULIP)).length).toBe(before);
  });

  it('refuses a POST without the CSRF token, creating nothing', async () => {
    const invite = await emailInvite();
    const page = await callPage(`/join/${invite.confirmationKey}/`, { form: { full_name: 'Forged Person', password: 'a good password' } });
    expect(page.status).toBe(403);
    expect(await usersStore.getByEmail(ZULIP, invite.email)).toBeUndefined();
  });
});
