// Organization settings in the web app, in Chromium: its profile and permissions. Iago (an
// administrator) saves a new name and description, lets only administrators create public
// channels and is refused the owner's choice of who may invite; King Hamlet (a member), signed in at the same time, sees each change arrive
// read-only and is then refused a new channel; the API reports what the page did.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { openGearMenuItem, settled, signInBoth } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

describe('e2e: the organization profile and permissions in the web app', () => {
  let iago: Page;
  let hamlet: Page;
  let api: any;
  let admins: number;
  let members: number;

  const realmState = async () =>
    await api.callEndpoint('/register', 'POST', { fetch_event_types: JSON.stringify(['realm', 'realm_user_groups']) });

  beforeAll(async () => {
    api = await zulipClient(service, IAGO);
    const groups = (await realmState()).realm_user_groups as { id: number; name: string }[];
    admins = groups.find((g) => g.name === 'role:administrators')!.id;
    members = groups.find((g) => g.name === 'role:members')!.id;
    [iago, hamlet] = await signInBoth(browser, service.origin, [IAGO, HAMLET], errors);
  }, 180000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('saves a new name and description that the other person sees arrive', async () => {
    await iago.goto(`${service.origin}/#inbox`);
    await openGearMenuItem(iago, 'Organization settings');
    const page = iago.locator('#organization_page');
    await page.getByLabel('Organization name').waitFor();
    await page.getByLabel('Organization name').fill('Elsinore');
    await page.getByLabel('Organization description').fill('The court of Denmark');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await iago.locator('.settings-status', { hasText: 'Saved.' }).waitFor();
    await browser.screenshot(iago, 'webapp-organization-profile');

    await hamlet.locator('.realm-name', { hasText: 'Elsinore' }).waitFor();
    await hamlet.goto(`${service.origin}/#organization/organization-profile`);
    await hamlet.locator('.organization-description', { hasText: 'The court of Denmark' }).waitFor();
    expect(await hamlet.locator('#organization_page input, #organization_page textarea').count()).toBe(0);
    await browser.screenshot(hamlet, 'webapp-organization-profile-member');
    expect(await realmState()).toMatchObject({ realm_name: 'Elsinore', realm_description: 'The court of Denmark' });
  }, 90000);

  it('lets only administrators create public channels, refuses an administrator the owner-only invite setting, and a member is then refused a channel', async () => {
    await hamlet.goto(`${service.origin}/#organization/organization-permissions`);
    const hamletSelect = hamlet.locator('select[name="can_create_public_channel_group"]');
    expect(await hamletSelect.isDisabled()).toBe(true);
    expect(await hamletSelect.inputValue()).toBe(String(members));

    await iago.goto(`${service.origin}/#organization/organization-permissions`);
    await iago.getByLabel('Who can create public channels').selectOption({ label: 'Administrators' });
    const state = await settled(realmState, (s) => s.realm_can_create_public_channel_group === admins);
    expect(state.realm_can_create_public_channel_group).toBe(admins);
    // Who may invite is an owner's choice: an administrator is refused, and nothing changes.
    const invite = iago.getByLabel('Who can invite users to this organization');
    await invite.selectOption({ label: 'Administrators' });
    await iago.locator('.permission-setting .settings-error', { hasText: 'Must be an organization owner' }).waitFor();
    expect(await invite.inputValue()).toBe(String(members));
    await browser.screenshot(iago, 'webapp-organization-permissions');
    expect((await realmState()).realm_can_invite_users_group).toBe(members);

    await settled(
      () => hamletSelect.inputValue(),
      (v) => v === String(admins),
    );
    expect(await hamletSelect.inputValue()).toBe(String(admins));
    await hamlet.goto(`${service.origin}/#channels/new`);
    await hamlet.getByLabel('Channel name').fill('a channel of my own');
    await hamlet.getByRole('button', { name: 'Create' }).click();
    await hamlet.locator('.settings-error', { hasText: 'Insufficient permission' }).waitFor();
    const streams = (await api.callEndpoint('/streams', 'GET', {})).streams as { name: string }[];
    expect(streams.map((s) => s.name)).not.toContain('a channel of my own');
  }, 90000);
});
