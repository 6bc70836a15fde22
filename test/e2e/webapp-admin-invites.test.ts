// Invitations in the web app's organization settings, in Chromium: Iago (an administrator) invites
// someone by email and creates an invite link, each with a lifetime and channels, and revokes them
// after confirming; Desdemona (an owner), signed in at the same time, sees the list follow through
// the invites_changed event; the API reports what the page did, and a member has no such section.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { signIn, signInBoth } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';
const NEWCOMER = 'newcomer@example.com';
const DAY_SECONDS = 24 * 60 * 60;

type Invite = { id: number; is_multiuse: boolean; email?: string; expiry_date: number | null; link_url?: string };

describe('e2e: invitations in the web app', () => {
  let iago: Page;
  let desdemona: Page;
  let api: any;
  let linkId: number;

  const invites = async (): Promise<Invite[]> => (await api.callEndpoint('/invites', 'GET', {})).invites;
  const rowsIn = (page: Page) => page.locator('.invites-table tbody tr');

  beforeAll(async () => {
    api = await zulipClient(service, IAGO);
    [iago, desdemona] = await signInBoth(browser, service.origin, [IAGO, DESDEMONA], errors);
  }, 180000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('invites by email with a lifetime and a channel, which the other administrator sees arrive', async () => {
    const before = (await invites()).length;
    await desdemona.goto(`${service.origin}/#organization/invites`);
    await desdemona.getByRole('heading', { name: 'Pending invitations' }).waitFor();
    await iago.goto(`${service.origin}/#organization/invites`);
    const page = iago.locator('#organization_page');
    await page.getByLabel(/^Emails/).fill(NEWCOMER);
    await page.getByLabel('Invitation expires after').selectOption({ label: '1 day' });
    await page.getByRole('checkbox', { name: '#Denmark' }).check();
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await iago.locator('.settings-status', { hasText: 'Invitations sent.' }).waitFor();
    await rowsIn(iago).filter({ hasText: NEWCOMER }).waitFor();
    await rowsIn(desdemona).filter({ hasText: NEWCOMER }).waitFor();
    await browser.screenshot(iago, 'webapp-organization-invites');

    const all = await invites();
    expect(all).toHaveLength(before + 1);
    const sent = all.find((i) => i.email === NEWCOMER)!;
    expect(sent.is_multiuse).toBe(false);
    const lifetime = sent.expiry_date! - Math.floor(Date.now() / 1000);
    expect(lifetime).toBeGreaterThan(DAY_SECONDS - 600);
    expect(lifetime).toBeLessThanOrEqual(DAY_SECONDS);
  }, 90000);

  it('shows the server’s refusal of an address that is not one', async () => {
    const before = (await invites()).length;
    const page = iago.locator('#organization_page');
    await page.getByLabel(/^Emails/).fill('not an address');
    await page.getByRole('button', { name: 'Send invitations' }).click();
    await iago
      .locator('.invite-form .settings-error', { hasText: "Some emails did not validate, so we didn't send any invitations." })
      .waitFor();
    expect(await invites()).toHaveLength(before);
  }, 60000);

  it('creates an invite link that never expires, shown to copy and listed for both', async () => {
    const page = iago.locator('#organization_page');
    await page.getByLabel('Invitation expires after').selectOption({ label: 'Never expires' });
    await page.getByRole('button', { name: 'Create invite link' }).click();
    const link = await page.locator('input.invite-link').inputValue();
    expect(link).toMatch(/\/join\//);
    const made = (await invites()).find((i) => i.link_url === link)!;
    expect(made).toMatchObject({ is_multiuse: true, expiry_date: null });
    linkId = made.id;
    await desdemona.locator(`.invites-table tr[data-invite-id="${linkId}"][data-multiuse="true"]`).waitFor();
    await browser.screenshot(iago, 'webapp-organization-invite-link');
  }, 60000);

  it('revokes an invitation after confirming: it leaves both lists and the API', async () => {
    const sent = (await invites()).find((i) => i.email === NEWCOMER)!;
    const row = iago.locator(`.invites-table tr[data-invite-id="${sent.id}"][data-multiuse="false"]`);
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = iago.getByRole('alertdialog', { name: `Revoke the invitation to ${NEWCOMER}?` });
    await browser.screenshot(iago, 'webapp-organization-invite-revoke');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.waitFor({ state: 'detached' });
    await rowsIn(desdemona).filter({ hasText: NEWCOMER }).waitFor({ state: 'detached' });
    expect((await invites()).some((i) => i.email === NEWCOMER)).toBe(false);
    // The link stays until it is revoked too.
    expect((await invites()).some((i) => i.is_multiuse && i.id === linkId)).toBe(true);
  }, 60000);

  it('shows a member no invitations section', async () => {
    const hamlet = await browser.newPersonPage();
    await signIn(hamlet, service.origin, 'hamlet@zulip.com', errors);
    await hamlet.goto(`${service.origin}/#organization/users`);
    await hamlet.locator('#organization_page').waitFor();
    expect(await hamlet.getByRole('link', { name: 'Invitations' }).count()).toBe(0);
  }, 120000);
});
