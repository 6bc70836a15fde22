import { advanceClock, freezeClock, resetClock } from '../../../lib/clock';
import { doCreateRealmCreationKey } from '../../../lib/actions/way-in/create-realm';
import { Role } from '../../../lib/models/user';
import * as channelsStore from '../../../lib/store/channels';
import * as defaultChannelsStore from '../../../lib/store/default-channels';
import * as realmsStore from '../../../lib/store/realms';
import * as groupsStore from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { handler as fetchApiKey } from '../../../functions/auth/fetch-api-key';
import { call } from '../../helpers/api';
import { PageClient, callPage, pageText } from '../../helpers/web';

let counter = 0;
const freshSubdomain = () => `org${Date.now().toString(36)}${(counter += 1)}`;

afterEach(() => resetClock());

const form = (overrides: Record<string, string> = {}) => ({
  realm_name: 'Acme Corp',
  realm_subdomain: freshSubdomain(),
  email: 'owner@acme.example.com',
  full_name: 'Acme Owner',
  password: 'a good password',
  ...overrides,
});

const submitNewRealm = async (key: string, values: Record<string, string>) => {
  const browser = new PageClient();
  const page = await browser.get(`/new/${key}/`);
  expect(page.status).toBe(200);
  return browser.submit(`/new/${key}/`, values);
};

describe('GET /new/<key>/', () => {
  it('shows the new-organization form with upstream field names and labels', async () => {
    const key = await doCreateRealmCreationKey();
    const page = await callPage(`/new/${key}/`);
    expect(page.status).toBe(200);
    for (const name of ['realm_name', 'realm_subdomain', 'email', 'full_name', 'password'])
      expect(page.markup).toContain(`<label for="id_${name}">`);
    expect(page.markup).toContain(`<form method="post" action="/new/${key}/" name="create_realm" id="create_realm">`);
  });

  it('is served at the root whatever the organization of the host', async () => {
    const key = await doCreateRealmCreationKey();
    expect((await callPage(`/new/${key}/`, { host: 'nowhere.localhost:3000' })).status).toBe(200);
  });

  it.each([
    ['an unknown key', () => Promise.resolve('b'.repeat(24))],
    ['an overlong key', () => Promise.resolve('c'.repeat(3000))],
  ])('answers %s with the invalid link page', async (_case, keyOf) => {
    const page = await callPage(`/new/${await keyOf()}/`);
    expect(pageText(page.body)).toContain('The organization creation link has expired or is not valid.');
    expect(page.markup).not.toContain('name="create_realm"');
  });

  it('answers a link older than 7 days with the invalid link page', async () => {
    const key = await doCreateRealmCreationKey();
    freezeClock(Date.now());
    advanceClock(7 * 24 * 3600 * 1000 + 1000);
    const page = await callPage(`/new/${key}/`);
    expect(pageText(page.body)).toContain('The organization creation link has expired or is not valid.');
  });
});

describe('POST /new/<key>/', () => {
  it('creates the organization as do_create_realm: system groups, channels with welcome messages, the owner', async () => {
    const key = await doCreateRealmCreationKey();
    const values = form();
    const page = await submitNewRealm(key, values);
    expect(page.status).toBe(200);
    const text = pageText(page.body);
    expect(text).toContain('Acme Corp is ready');
    expect(text).toContain(`http://${values.realm_subdomain}.localhost:3000`);

    const realm = (await realmsStore.getByStringId(values.realm_subdomain))!;
    expect(realm).toMatchObject({ name: 'Acme Corp', deactivated: false });
    const groups = await groupsStore.listGroupsOfRealm(realm.id, { consistent: true });
    expect(
      groups
        .filter((g) => g.isSystemGroup)
        .map((g) => g.name)
        .sort(),
    ).toEqual([
      'role:administrators',
      'role:everyone',
      'role:fullmembers',
      'role:internet',
      'role:members',
      'role:moderators',
      'role:nobody',
      'role:owners',
    ]);
    const owner = (await usersStore.getByEmail(realm.id, values.email))!;
    expect(owner).toMatchObject({ role: Role.OWNER, fullName: 'Acme Owner', isActive: true });
    expect(groups.find((g) => g.name === 'role:owners')!.members).toContain(owner.id);

    const channels = await channelsStore.getChannelsByNames(realm.id, ['general', 'sandbox']);
    expect(channels.map((c) => c.name).sort()).toEqual(['general', 'sandbox']);
    expect((await defaultChannelsStore.listDefaultChannelIds(realm.id, { consistent: true })).sort()).toEqual(
      channels.map((c) => c.id).sort(),
    );
    const general = channels.find((c) => c.name === 'general')!;
    expect(general.firstMessageId).not.toBeNull();
    expect(realm.signupAnnouncementsStreamId).toBe(general.id);
    expect(await usersStore.getSystemBot('welcome-bot@zulip.com')).toMatchObject({ fullName: 'Welcome Bot', isBot: true });

    // The owner signs in to the API at the organization with the password.
    const fetched = await call(fetchApiKey, {
      method: 'POST',
      params: { username: values.email, password: values.password },
      headers: { host: `${values.realm_subdomain}.localhost:3000` },
    });
    expect(fetched.status).toBe(200);
  });

  it("signs the owner in at the organization's host through a one-time link on the page", async () => {
    const values = form();
    const page = await submitNewRealm(await doCreateRealmCreationKey(), values);
    const host = `${values.realm_subdomain}.localhost:3000`;
    const link = /id="continue_link" href="([^"]+)"/.exec(page.body)?.[1];
    expect(link).toMatch(new RegExp(`^http://${host}/accounts/login/subdomain/[A-Za-z0-9_-]{43}/$`));
    const handoffPath = new URL(link!).pathname;
    // Another organization's host does not take it (and it is spent: a token is for one host).
    const elsewhere = new PageClient({ host: 'lear.localhost:3000' });
    // At the organization's host it starts a session: the account page is the owner's.
    const owner = new PageClient({ host });
    const arrived = await owner.get(handoffPath);
    expect(arrived.status).toBe(200);
    expect(pageText(arrived.body)).toContain('You are signed in as Acme Owner (owner@acme.example.com)');
    expect(owner.cookies.sessionid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const account = await owner.get('/accounts/');
    expect(account.status).toBe(200);
    expect(pageText(account.body)).toContain('Acme Owner');
    // Once only, and nowhere else.
    const again = await new PageClient({ host }).get(handoffPath);
    expect(again.status).toBe(404);
    expect(pageText(again.body)).toContain('Sorry, the link you provided is invalid or has already been used.');
    expect(again.setCookies.some((c) => c.startsWith('sessionid='))).toBe(false);
    expect((await elsewhere.get(handoffPath)).status).toBe(404);
  });

  it("refuses a hand-off link at another organization's host, and a malformed one", async () => {
    const values = form();
    const page = await submitNewRealm(await doCreateRealmCreationKey(), values);
    const handoffPath = new URL(/id="continue_link" href="([^"]+)"/.exec(page.body)![1]).pathname;
    const elsewhere = await callPage(handoffPath, { host: 'lear.localhost:3000' });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.setCookies.some((c) => c.startsWith('sessionid='))).toBe(false);
    expect((await callPage('/accounts/login/subdomain/nonsense/', { host: `${values.realm_subdomain}.localhost:3000` })).status).toBe(404);
  });

  it('uses a link once', async () => {
    const key = await doCreateRealmCreationKey();
    expect((await submitNewRealm(key, form())).status).toBe(200);
    const again = await callPage(`/new/${key}/`);
    expect(pageText(again.body)).toContain('The organization creation link has expired or is not valid.');
  });

  it.each([
    ['the default organization subdomain', { realm_subdomain: 'zulip' }, 'Subdomain reserved. Please choose a different one.'],
    ['an existing organization', { realm_subdomain: 'lear' }, 'Subdomain already in use. Please choose a different one.'],
    ['a reserved subdomain', { realm_subdomain: 'www' }, 'Subdomain reserved. Please choose a different one.'],
    ['capitals', { realm_subdomain: 'Acme' }, "Subdomain can only have lowercase letters, numbers, and '-'s."],
    ['a leading dash', { realm_subdomain: '-acme' }, "Subdomain cannot start or end with a '-'."],
    ['a short subdomain', { realm_subdomain: 'ab' }, 'Subdomain needs to have length 3 or greater.'],
    ['a long subdomain', { realm_subdomain: 'a'.repeat(41) }, 'Ensure this value has at most 40 characters (it has 41).'],
    ['no organization name', { realm_name: ' ' }, 'This field is required.'],
    ['a bad email', { email: 'nope' }, 'Enter a valid email address.'],
    ['a short password', { password: 'abc' }, 'The password is too weak.'],
    ['no name', { full_name: '' }, 'Name too short!'],
  ])('refuses %s with the form again, creating nothing and keeping the link', async (_case, overrides, text) => {
    const key = await doCreateRealmCreationKey();
    const values = form(overrides);
    const page = await submitNewRealm(key, values);
    expect(page.status).toBe(400);
    expect(pageText(page.body)).toContain(text);
    if (values.realm_subdomain !== 'lear' && values.realm_subdomain !== 'zulip' && /^[a-z0-9-]{1,100}$/.test(values.realm_subdomain))
      expect(await realmsStore.getByStringId(values.realm_subdomain)).toBeUndefined();
    expect((await callPage(`/new/${key}/`)).status).toBe(200);
  });

  it('gives one of two concurrent creations of a subdomain the organization and the other the form', async () => {
    const [k1, k2] = [await doCreateRealmCreationKey(), await doCreateRealmCreationKey()];
    const subdomain = freshSubdomain();
    const results = await Promise.all([
      submitNewRealm(k1, form({ realm_subdomain: subdomain })),
      submitNewRealm(k2, form({ realm_subdomain: subdomain })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.status === 400)!;
    expect(pageText(loser.body)).toContain('Subdomain already in use. Please choose a different one.');
  });

  it('refuses a POST without the CSRF token, creating nothing', async () => {
    const key = await doCreateRealmCreationKey();
    const values = form();
    const page = await callPage(`/new/${key}/`, { form: values });
    expect(page.status).toBe(403);
    expect(await realmsStore.getByStringId(values.realm_subdomain)).toBeUndefined();
  });
});
