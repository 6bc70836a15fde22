// The channel browser in the web app, in Chromium: King Hamlet (a member) subscribes, unsubscribes
// and creates a private channel from #channels; Iago (an administrator), signed in at the same
// time, renames a channel and changes its description, then archives it, and Hamlet's sidebar
// follows each change; the API then reports what the page did. Iago also sets a channel's
// permissions: only administrators may post (Hamlet's message is refused as the server words it),
// then private with protected history (Hamlet's sidebar shows the lock); and Hamlet, made one of
// its administrators, sees the server's refusal of a privacy he may not choose.
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
type Group = { id: number; name: string };

describe('e2e: the channel browser in the web app', () => {
  let iago: Page;
  let hamlet: Page;
  let iagoApi: any;
  let hamletApi: any;

  const subscribedNames = async (): Promise<string[]> =>
    ((await hamletApi.streams.subscriptions.retrieve()).subscriptions as Channel[]).map((s) => s.name);
  const sidebarRow = (page: Page, id: number) => page.locator(`#stream_filters li[data-stream-id="${id}"]`);
  const browserRow = (page: Page, id: number) => page.locator(`.channel-browser li[data-stream-id="${id}"]`);
  const roleGroup = async (name: string): Promise<number> =>
    ((await iagoApi.callEndpoint('/user_groups', 'GET', {})).user_groups as Group[]).find((g) => g.name === name)!.id;
  const streamOf = async (id: number) => (await hamletApi.callEndpoint(`/streams/${id}`, 'GET', {})).stream;
  /** Opens a channel's permissions dialog from #channels/all. */
  const openPermissions = async (page: Page, id: number, name: string) => {
    await page.goto(`${service.origin}/#channels/all`);
    await browserRow(page, id).getByRole('button', { name: 'Permissions' }).click();
    return page.getByRole('dialog', { name: `Permissions of #${name}` });
  };
  let announcements = 0;

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

  it('lets an administrator restrict posting to administrators: the member’s message is refused, and the API reports the group', async () => {
    const ids = await Promise.all([iagoApi, hamletApi].map(async (c) => (await c.users.me.getProfile()).user_id as number));
    await iagoApi.users.me.subscriptions.add({ subscriptions: [{ name: 'announcements' }], principals: ids });
    announcements = (await hamletApi.callEndpoint('/get_stream_id', 'GET', { stream: 'announcements' })).stream_id;
    const admins = await roleGroup('role:administrators');
    expect(await streamOf(announcements)).not.toMatchObject({ can_send_message_group: admins });
    // Hamlet administers no channel here: no Permissions button.
    await hamlet.goto(`${service.origin}/#channels/all`);
    await browserRow(hamlet, announcements).waitFor();
    expect(await browserRow(hamlet, announcements).getByRole('button', { name: 'Permissions' }).count()).toBe(0);

    const dialog = await openPermissions(iago, announcements, 'announcements');
    const posting = dialog.getByLabel('Who can post to this channel');
    expect(await posting.locator('option:checked').innerText()).toBe('Everyone including guests');
    await posting.selectOption({ label: 'Administrators' });
    await browser.screenshot(iago, 'webapp-channels-permissions');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await streamOf(announcements)).toMatchObject({ can_send_message_group: admins });

    await hamlet.goto(`${service.origin}/#narrow/channel/${announcements}-announcements/topic/news`);
    await hamlet.waitForSelector('#compose-textarea');
    await hamlet.fill('#compose-textarea', 'May I speak here?');
    await hamlet.press('#compose-textarea', 'Enter');
    // The local echo stays, marked failed with the server's words (it has no message id).
    const echo = hamlet.locator('.message_row.local_echo', { hasText: 'May I speak here?' });
    await echo.locator('.send_failed', { hasText: 'You do not have permission to post in this channel.' }).waitFor();
    await browser.screenshot(hamlet, 'webapp-channels-post-refused');
    await echo.getByRole('button', { name: 'Discard' }).click();
    await echo.waitFor({ state: 'detached' });
    const { messages } = await iagoApi.messages.retrieve({
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: announcements }],
    });
    expect((messages as { content: string }[]).filter((m) => m.content.includes('May I speak here?'))).toEqual([]);
  }, 90000);

  it('lets an administrator make a channel private with protected history, which the member’s sidebar shows', async () => {
    await hamlet.goto(`${service.origin}/#inbox`);
    await sidebarRow(hamlet, announcements).waitFor();
    expect(await sidebarRow(hamlet, announcements).locator('.lock-icon').count()).toBe(0);

    const dialog = await openPermissions(iago, announcements, 'announcements');
    expect(await dialog.getByRole('radio', { name: /^Public/ }).isChecked()).toBe(true);
    await dialog.getByRole('radio', { name: /^Private, protected history/ }).check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });

    await sidebarRow(hamlet, announcements).locator('.lock-icon').waitFor();
    await hamlet.goto(`${service.origin}/#channels/subscribed`);
    await browserRow(hamlet, announcements).getByText('(private)').waitFor();
    expect(await streamOf(announcements)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
  }, 60000);

  it('shows a channel administrator the server’s refusal verbatim, and changes nothing', async () => {
    const members = await roleGroup('role:members');
    const admins = await roleGroup('role:administrators');
    const dialog = await openPermissions(iago, announcements, 'announcements');
    await dialog.getByLabel('Who can administer this channel').selectOption({ label: 'Everyone except guests' });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await streamOf(announcements)).toMatchObject({ can_administer_channel_group: members });

    // Only administrators may make a channel public now; Hamlet administers this channel but is not one.
    await iagoApi.callEndpoint('/realm', 'PATCH', { can_create_public_channel_group: JSON.stringify({ new: admins }) });
    try {
      const his = await openPermissions(hamlet, announcements, 'announcements');
      await his.getByRole('radio', { name: /^Public/ }).check();
      await his.getByRole('button', { name: 'Save changes' }).click();
      await his
        .getByRole('alert')
        .filter({ hasText: /^Insufficient permission$/ })
        .waitFor();
      await his.getByRole('button', { name: 'Cancel' }).click();
      expect(await streamOf(announcements)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    } finally {
      await iagoApi.callEndpoint('/realm', 'PATCH', { can_create_public_channel_group: JSON.stringify({ new: members }) });
    }
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
