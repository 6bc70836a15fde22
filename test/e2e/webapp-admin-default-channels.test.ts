// Default channels in the web app's organization settings, in Chromium: Iago (an administrator)
// adds a channel, which Desdemona (an owner), signed in at the same time, sees arrive through the
// default_streams event; a private channel is refused in the server's words and nothing changes;
// Iago removes the channel after confirming and Desdemona's list loses it. The API reports what
// the page did; a member has no such section.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { signIn, signInBoth } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';

describe('e2e: default channels in the web app', () => {
  let iago: Page;
  let desdemona: Page;
  let api: any;
  let idOf: (name: string) => number;

  const defaults = async (): Promise<number[]> =>
    (await api.callEndpoint('/register', 'POST', { fetch_event_types: JSON.stringify(['default_streams']) })).realm_default_streams;
  const listed = (page: Page) => page.locator('.default-channels-table .channel-name').allInnerTexts();
  const add = async (name: string) => {
    await iago.getByLabel('Channel to add').selectOption({ label: name });
    await iago.getByRole('button', { name: 'Add channel' }).click();
  };

  beforeAll(async () => {
    api = await zulipClient(service, IAGO);
    const streams = (await api.callEndpoint('/streams', 'GET', {})).streams as { name: string; stream_id: number }[];
    idOf = (name) => streams.find((s) => s.name === name)!.stream_id;
    [iago, desdemona] = await signInBoth(browser, service.origin, [IAGO, DESDEMONA], errors);
  }, 180000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('adds a channel the other administrator sees arrive, and refuses a private one', async () => {
    const before = await defaults();
    expect(before).not.toContain(idOf('Rome'));
    await iago.goto(`${service.origin}/#organization/default-channels-list`);
    await desdemona.goto(`${service.origin}/#organization/default-channels-list`);
    await iago.locator('.settings-section h3', { hasText: 'Default channels' }).waitFor();
    await add('#Rome');
    await desdemona.locator('.default-channels-table .channel-name', { hasText: '#Rome' }).waitFor();
    await browser.screenshot(iago, 'webapp-organization-default-channels');
    expect((await defaults()).sort()).toEqual([...before, idOf('Rome')].sort());

    await add('#core team (private)');
    await iago.locator('.add-default-channel-form .settings-error', { hasText: 'Private channels cannot be made default.' }).waitFor();
    expect((await defaults()).sort()).toEqual([...before, idOf('Rome')].sort());
  }, 90000);

  it('removes a channel after confirming, and the other administrator’s list loses it', async () => {
    const before = await listed(desdemona);
    expect(before).toContain('#Rome');
    await iago.getByRole('button', { name: 'Remove #Rome' }).click();
    const dialog = iago.getByRole('alertdialog', { name: 'Remove #Rome from the default channels?' });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached' });
    await desdemona.locator('.default-channels-table .channel-name', { hasText: '#Rome' }).waitFor({ state: 'detached' });
    expect(await listed(desdemona)).toEqual(before.filter((n) => n !== '#Rome'));
    expect(await defaults()).not.toContain(idOf('Rome'));
  }, 90000);

  it('has no such section for a member', async () => {
    const hamlet = await browser.newPersonPage();
    await signIn(hamlet, service.origin, 'hamlet@zulip.com', errors);
    await hamlet.goto(`${service.origin}/#organization/organization-profile`);
    await hamlet.locator('#organization_page').waitFor();
    expect(await hamlet.locator('.settings-sections a', { hasText: 'Default channels' }).count()).toBe(0);
  }, 90000);
});
