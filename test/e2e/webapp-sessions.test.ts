// "Sign out of other sessions" in the web app's settings (ours: upstream has no such control), in
// Chromium: King Hamlet is signed in in two browsers; from the first he signs out the others, and
// the second's next request is refused (401 at /json/) and its app goes to the login page, while
// the first keeps working: a message sent from it is what the API then reports.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { row, signIn } from '../helpers/webapp-pages';

const service = useLocalService();
const browser = useBrowser();
const errors: string[] = [];

const HAMLET = 'hamlet@zulip.com';

describe('e2e: signing out of other sessions in the web app', () => {
  let here: Page;
  let elsewhere: Page;
  let denmark: number;

  beforeAll(async () => {
    const api = await zulipClient(service, HAMLET);
    denmark = (await api.streams.getStreamId('Denmark')).stream_id;
    here = await browser.newPage();
    elsewhere = await browser.newPersonPage();
    await signIn(here, service.origin, HAMLET, errors);
    await signIn(elsewhere, service.origin, HAMLET, errors);
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('signs the other browser out at its next request, and this one keeps working', async () => {
    const ownUser = async (page: Page) => (await page.request.get(`${service.origin}/json/users/me`)).status();
    expect([await ownUser(here), await ownUser(elsewhere)]).toEqual([200, 200]);

    await here.goto(`${service.origin}/#settings/account-and-privacy`);
    await here.getByRole('button', { name: 'Sign out of other sessions' }).click();
    const dialog = here.getByRole('alertdialog', { name: 'Sign out of other sessions?' });
    await browser.screenshot(here, 'webapp-settings-sign-out-others');
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await here.locator('.settings-status', { hasText: 'Signed out of 1 other session.' }).waitFor();
    await browser.screenshot(here, 'webapp-settings-signed-out-others');

    expect([await ownUser(here), await ownUser(elsewhere)]).toEqual([200, 401]);
    // The other browser's app, at its next request (a view's messages), goes to the login page.
    await elsewhere.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark`);
    await elsewhere.waitForURL(/\/login\/$/);
    await elsewhere.getByLabel('Password').waitFor();

    await here.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark/topic/still%20here`);
    await here.fill('#compose-textarea', 'Still signed in here');
    await here.press('#compose-textarea', 'Enter');
    await row(here, 'Still signed in here').waitFor();
    const api = await zulipClient(service, HAMLET);
    const latest = await api.messages.retrieve({
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: 'sender', operand: HAMLET }],
    });
    expect(latest.messages[0]).toMatchObject({ subject: 'still here', content: '<p>Still signed in here</p>' });
  }, 120000);
});
