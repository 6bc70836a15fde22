// The channel browser in the web app, in Chromium: King Hamlet (a member) subscribes, unsubscribes
// and creates a private channel from #channels; Iago (an administrator), signed in at the same
// time, renames a channel and changes its description, then archives it, and Hamlet's sidebar
// follows each change; the API then reports what the page did.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { openGearMenuItem, signInBoth } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

type Channel = { stream_id: number; name: string; description: string; invite_only: boolean };

describe('e2e: the channel browser in the web app', () => {
  let iago: Page;
  let hamlet: Page;
  let iagoApi: any;
  let hamletApi: any;

  const subscribedNames = async (): Promise<string[]> =>
    ((await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[]).map((s) => s.name);
  const sidebarRow = (page: Page, id: number) => page.locator(`#stream_filters li[data-stream-id="${id}"]`);
  const browserRow = (page: Page, id: number) => page.locator(`.channel-browser li[data-stream-id="${id}"]`);

  beforeAll(async () => {
    iagoApi = await zulipClient(service, IAGO);
    hamletApi = await zulipClient(service, HAMLET);
    [iago, hamlet] = await signInBoth(browser, service.origin, [IAGO, HAMLET], errors);
  }, 180000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('subscribes and unsubscribes from #channels/all, as the sidebar and the API then show', async () => {
    const mine = new Set(await subscribedNames());
    const all = (await hamletApi.streams.retrieve()).streams as Channel[];
    const other = all.find((s) => !s.invite_only && !mine.has(s.name))!;
    expect(other).toBeDefined();

    await hamlet.goto(`${service.origin}/#inbox`);
    await openGearMenuItem(hamlet, 'Channel settings');
    await hamlet.locator('#subscription_overlay').waitFor();
    expect(hamlet.url()).toBe(`${service.origin}/#channels/subscribed`);
    expect(await hamlet.locator('.channel-browser li').count()).toBe(mine.size);
    await hamlet.getByRole('link', { name: 'All channels' }).click();
    await browserRow(hamlet, other.stream_id).waitFor();
    // A member administers no channel here.
    expect(await hamlet.locator('.channel-browser .archive-channel, .channel-browser .edit-channel').count()).toBe(0);
    await browser.screenshot(hamlet, 'webapp-channels-all');

    await browserRow(hamlet, other.stream_id).getByRole('button', { name: 'Subscribe' }).click();
    await browserRow(hamlet, other.stream_id).getByRole('button', { name: 'Unsubscribe' }).waitFor();
    await sidebarRow(hamlet, other.stream_id).waitFor({ state: 'attached' });
    expect(await subscribedNames()).toContain(other.name);

    await browserRow(hamlet, other.stream_id).getByRole('button', { name: 'Unsubscribe' }).click();
    await browserRow(hamlet, other.stream_id).getByRole('button', { name: 'Subscribe' }).waitFor();
    await sidebarRow(hamlet, other.stream_id).waitFor({ state: 'detached' });
    expect(await subscribedNames()).not.toContain(other.name);
  }, 90000);

  it('creates a private channel with a description, which the API then reports', async () => {
    await hamlet.goto(`${service.origin}/#channels/new`);
    await hamlet.getByLabel('Channel name').fill('elsinore plans');
    await hamlet.getByLabel('Description').fill('What to do about Claudius');
    await hamlet.getByRole('radio', { name: /^Private/ }).check();
    await hamlet.getByRole('button', { name: 'Create' }).click();
    await hamlet.locator('.settings-status', { hasText: '#elsinore plans was created.' }).waitFor();
    await browser.screenshot(hamlet, 'webapp-channels-new');
    const subs = (await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[];
    const created = subs.find((s) => s.name === 'elsinore plans')!;
    expect(created).toMatchObject({ description: 'What to do about Claudius', invite_only: true });
    await sidebarRow(hamlet, created.stream_id).waitFor({ state: 'attached' });
  }, 60000);

  it('lets an administrator rename a channel and change its description, which the other person sees', async () => {
    const subs = (await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[];
    const denmark = subs.find((s) => s.name === 'Denmark')!;
    await hamlet.goto(`${service.origin}/#inbox`);
    await sidebarRow(hamlet, denmark.stream_id).getByText('Denmark').waitFor();

    await iago.goto(`${service.origin}/#channels/all`);
    await browserRow(iago, denmark.stream_id).getByRole('button', { name: 'Edit' }).click();
    const dialog = iago.getByRole('dialog', { name: 'Edit #Denmark' });
    await dialog.getByLabel('Channel name').fill('Denmark of old');
    await dialog.getByLabel('Description').fill('Something is rotten here');
    await browser.screenshot(iago, 'webapp-channels-edit');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await browserRow(iago, denmark.stream_id).getByText('Something is rotten here').waitFor();

    await sidebarRow(hamlet, denmark.stream_id).getByText('Denmark of old').waitFor();
    const { stream } = await hamletApi.callEndpoint(`/streams/${denmark.stream_id}`, 'GET', {});
    expect(stream).toMatchObject({ name: 'Denmark of old', description: 'Something is rotten here' });
  }, 60000);

  it('shows the server’s refusal of a taken name and changes nothing', async () => {
    const subs = (await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[];
    const verona = subs.find((s) => s.name === 'Verona')!;
    await iago.goto(`${service.origin}/#channels/all`);
    await browserRow(iago, verona.stream_id).getByRole('button', { name: 'Edit' }).click();
    const dialog = iago.getByRole('dialog', { name: 'Edit #Verona' });
    await dialog.getByLabel('Channel name').fill('Denmark of old');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByRole('alert').filter({ hasText: "Channel 'Denmark of old' already exists" }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const { stream } = await hamletApi.callEndpoint(`/streams/${verona.stream_id}`, 'GET', {});
    expect(stream.name).toBe('Verona');
  }, 60000);

  it('lets an administrator archive a channel after confirming: it leaves the other person’s sidebar', async () => {
    const subs = (await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[];
    const verona = subs.find((s) => s.name === 'Verona')!;
    await sidebarRow(hamlet, verona.stream_id).waitFor({ state: 'attached' });
    await iago.goto(`${service.origin}/#channels/all`);
    await browserRow(iago, verona.stream_id).getByRole('button', { name: 'Archive' }).click();
    const dialog = iago.getByRole('alertdialog', { name: 'Archive #Verona?' });
    await browser.screenshot(iago, 'webapp-channels-archive');
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await browserRow(iago, verona.stream_id).waitFor({ state: 'detached' });
    await sidebarRow(hamlet, verona.stream_id).waitFor({ state: 'detached' });
    const listed = async (params: Record<string, string>) =>
      ((await iagoApi.callEndpoint('/streams', 'GET', params)).streams as (Channel & { is_archived?: boolean })[]).find(
        (s) => s.stream_id === verona.stream_id,
      );
    expect(await listed({})).toBeUndefined();
    expect(await listed({ exclude_archived: 'false' })).toMatchObject({ name: 'Verona', is_archived: true });
  }, 60000);
});
