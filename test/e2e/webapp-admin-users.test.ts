// Organization settings in the web app, in Chromium: the users list. Iago (an administrator)
// opens it from the gear menu (its chunk loads then), changes a role, deactivates Othello after
// confirming and reactivates him; King Hamlet (a member), signed in at the same time, sees the list
// read-only and Othello leave and come back; the API reports each change, a deactivated Othello
// cannot act, and the owner-only changes Iago tries show the server's refusal and change nothing.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { settled, signInBoth } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';

describe('e2e: the users of organization settings in the web app', () => {
  let iago: Page;
  let hamlet: Page;
  let api: any;
  let othelloApi: any;
  const ids: Record<string, number> = {};

  const userOf = async (email: string) => (await api.callEndpoint(`/users/${ids[email]}`, 'GET', {})).user;
  const rowIn = (page: Page, email: string) => page.locator(`.users-table tr[data-user-id="${ids[email]}"]`);

  beforeAll(async () => {
    api = await zulipClient(service, IAGO);
    othelloApi = await zulipClient(service, OTHELLO);
    for (const u of (await api.users.retrieve()).members as { email: string; user_id: number }[]) ids[u.email] = u.user_id;
    [iago, hamlet] = await signInBoth(browser, service.origin, [IAGO, HAMLET], errors);
  }, 180000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('opens from the gear menu at #organization, loading its chunk then, and closes back to the view', async () => {
    const chunks: string[] = [];
    iago.on('request', (request) => {
      if (/\/static\/chunk-/.test(request.url())) chunks.push(request.url());
    });
    await iago.goto(`${service.origin}/#feed`);
    await iago.waitForSelector('#message_view_header');
    const before = chunks.length;
    await iago.getByRole('button', { name: 'Main menu' }).click();
    await iago.locator('#gear-menu').waitFor();
    await browser.screenshot(iago, 'webapp-admin-gear-menu');
    await iago.getByRole('menuitem', { name: 'Organization settings' }).click();
    await iago.locator('#organization_page').waitFor();
    expect(chunks.length).toBeGreaterThan(before);
    await iago.getByRole('link', { name: 'Users', exact: true }).click();
    await rowIn(iago, OTHELLO).waitFor();
    expect(iago.url()).toBe(`${service.origin}/#organization/users`);
    expect(await rowIn(iago, DESDEMONA).locator('select').inputValue()).toBe('100');
    expect(await rowIn(iago, HAMLET).locator('select').inputValue()).toBe('400');
    // Every control is reached by keyboard, with a visible focus.
    await iago.locator('#organization_page').focus();
    for (let i = 0; i < 6; i += 1) await iago.keyboard.press('Tab');
    const outline = await iago.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await browser.screenshot(iago, 'webapp-admin-users');
    await iago.keyboard.press('Escape');
    await iago.locator('#organization_page').waitFor({ state: 'detached' });
    expect(iago.url()).toBe(`${service.origin}/#feed`);
  }, 90000);

  it('shows a member the list read-only, without the deactivated users', async () => {
    await hamlet.goto(`${service.origin}/#organization/users`);
    await rowIn(hamlet, OTHELLO).waitFor();
    expect(await rowIn(hamlet, OTHELLO).innerText()).toContain('Member');
    expect(await hamlet.locator('#organization_page select, #organization_page .deactivate').count()).toBe(0);
    expect(await hamlet.getByRole('link', { name: 'Deactivated users' }).count()).toBe(0);
    await browser.screenshot(hamlet, 'webapp-admin-users-member');
  }, 60000);

  it('changes a role, as the API then reports and the other person sees', async () => {
    await iago.goto(`${service.origin}/#organization/users`);
    await rowIn(iago, HAMLET).locator('select').selectOption('300');
    const user = await settled(
      () => userOf(HAMLET),
      (u) => u.role === 300,
    );
    expect(user.role).toBe(300);
    await rowIn(hamlet, HAMLET).getByText('Moderator').waitFor();
  }, 60000);

  it('shows the server’s refusal of an owner-only change by an administrator, and changes nothing', async () => {
    await iago.goto(`${service.origin}/#organization/users`);
    await rowIn(iago, DESDEMONA).locator('select').selectOption('400');
    await iago.locator('.settings-error', { hasText: 'Must be an organization owner' }).waitFor();
    expect(await rowIn(iago, DESDEMONA).locator('select').inputValue()).toBe('100');
    // Owners are given by owners: the role is not offered to an administrator.
    expect(await rowIn(iago, HAMLET).locator('option[value="100"]').count()).toBe(0);

    await rowIn(iago, DESDEMONA).getByRole('button', { name: 'Deactivate' }).click();
    await iago.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
    await iago.getByRole('alertdialog').getByRole('alert').filter({ hasText: 'Must be an organization owner' }).waitFor();
    await browser.screenshot(iago, 'webapp-admin-deactivate-refused');
    await iago.keyboard.press('Escape');
    await iago.getByRole('alertdialog').waitFor({ state: 'detached' });
    await iago.locator('#organization_page').waitFor();
    expect(await userOf(DESDEMONA)).toMatchObject({ role: 100, is_active: true });
  }, 60000);

  it('deactivates Othello after confirming: he leaves the other person’s lists and cannot act', async () => {
    await hamlet.goto(`${service.origin}/#organization/users`);
    await hamlet.locator(`#right-sidebar li[data-user-id="${ids[OTHELLO]}"]`).waitFor();
    await iago.goto(`${service.origin}/#organization/users`);
    await rowIn(iago, OTHELLO).getByRole('button', { name: 'Deactivate' }).click();
    const dialog = iago.getByRole('alertdialog', { name: 'Deactivate Othello, the Moor of Venice?' });
    await dialog.waitFor();
    await browser.screenshot(iago, 'webapp-admin-deactivate-confirm');
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await userOf(OTHELLO)).is_active).toBe(true);
    await rowIn(iago, OTHELLO).getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await rowIn(iago, OTHELLO).waitFor({ state: 'detached' });

    await hamlet.locator(`#right-sidebar li[data-user-id="${ids[OTHELLO]}"]`).waitFor({ state: 'detached' });
    await rowIn(hamlet, OTHELLO).waitFor({ state: 'detached' });
    expect((await userOf(OTHELLO)).is_active).toBe(false);
    const sent = await othelloApi.messages.send({ type: 'stream', to: 'Denmark', topic: 'still here', content: 'hello' });
    expect(sent.result).toBe('error');

    await iago.getByRole('link', { name: 'Deactivated users' }).click();
    await rowIn(iago, OTHELLO).waitFor();
    await browser.screenshot(iago, 'webapp-admin-deactivated');
  }, 90000);

  it('reactivates Othello after confirming: the other person sees him again and he can act', async () => {
    await iago.goto(`${service.origin}/#organization/deactivated`);
    await rowIn(iago, OTHELLO).getByRole('button', { name: 'Reactivate' }).click();
    await iago.getByRole('alertdialog').getByRole('button', { name: 'Reactivate' }).click();
    await rowIn(iago, OTHELLO).waitFor({ state: 'detached' });
    await hamlet.locator(`#right-sidebar li[data-user-id="${ids[OTHELLO]}"]`).waitFor();
    await rowIn(hamlet, OTHELLO).waitFor();
    expect((await userOf(OTHELLO)).is_active).toBe(true);
    const sent = await othelloApi.messages.send({ type: 'stream', to: 'Denmark', topic: 'back again', content: 'hello' });
    expect(sent.result).toBe('success');
  }, 90000);
});
