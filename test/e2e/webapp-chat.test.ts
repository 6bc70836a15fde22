// The web app in a real browser (headless Chromium), two people in two browser contexts over
// HTTP through serverless-offline: a channel message appears for the other without a reload and
// its unread count rises, then falls when it is read; a DM both ways; an edit and a delete seen
// live; a reload keeps the view; signing out. No page logs an uncaught error.
import type { Page } from 'playwright-core';
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { row, signInTwoPeople } from '../helpers/webapp-pages';

// The real app, as the run's global setup built it (WEBAPP_DIST).
const service = useLocalService();
const browser = useBrowser();

const IAGO = 'iago@zulip.com';
const errors: string[] = [];

/** A channel's unread count in the left sidebar (absent at 0). */
const channelBadge = (page: Page, streamId: number) => page.locator(`#stream_filters [data-stream-id="${streamId}"] > a .unread_count`);

const channelUnread = async (page: Page, streamId: number): Promise<number> => {
  const badge = channelBadge(page, streamId);
  return (await badge.count()) === 0 ? 0 : Number(await badge.innerText());
};

describe('e2e: the web app in Chromium', () => {
  let hamletPage: Page;
  let iagoPage: Page;
  let hamletApi: any;
  let denmark: number;
  let iagoId: number;
  let hamletId: number;

  beforeAll(async () => {
    ({ hamletPage, iagoPage, hamletApi, denmark, iagoId, hamletId } = await signInTwoPeople(service, browser, errors));
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('shows a channel message to the other person live, counts it unread, and reads it', async () => {
    await iagoPage.goto(`${service.origin}/#inbox`);
    await iagoPage.waitForSelector('#inbox-main');
    const before = await channelUnread(iagoPage, denmark);
    await browser.screenshot(iagoPage, 'webapp-inbox');

    await hamletPage.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark/topic/web.20app`);
    await hamletPage.waitForSelector('#compose-textarea');
    expect(await hamletPage.inputValue('#stream_message_recipient_topic')).toBe('web app');
    await hamletPage.fill('#compose-textarea', 'Hello from the browser');
    await hamletPage.press('#compose-textarea', 'Enter');
    await row(hamletPage, 'Hello from the browser').waitFor();
    expect(await hamletPage.inputValue('#compose-textarea')).toBe('');
    await browser.screenshot(hamletPage, 'webapp-topic');

    await channelBadge(iagoPage, denmark)
      .filter({ hasText: new RegExp(`^${before + 1}$`) })
      .waitFor();
    expect(await iagoPage.title()).toMatch(/^\(\d+\) Inbox - Zulip Dev - Zulip$/);
    await iagoPage.click(`#stream_filters [data-stream-id="${denmark}"] > a`);
    await row(iagoPage, 'Hello from the browser').waitFor();
    await channelBadge(iagoPage, denmark).waitFor({ state: 'detached' });
    expect(await iagoPage.locator('#message_view_header').innerText()).toContain('#Denmark');
    await browser.screenshot(iagoPage, 'webapp-channel');
  }, 60000);

  it('carries a direct message both ways', async () => {
    await hamletPage.goto(`${service.origin}/#narrow/dm/${iagoId}-Iago`);
    await hamletPage.waitForSelector('#private_message_recipient');
    expect(await hamletPage.inputValue('#private_message_recipient')).toBe(IAGO);
    await hamletPage.fill('#compose-textarea', 'A word in private');
    await hamletPage.click('#compose-send-button');
    await row(hamletPage, 'A word in private').waitFor();

    await iagoPage.locator(`#direct-messages-list [data-user-ids-string="${hamletId}"] .unread_count`).waitFor();
    await iagoPage.click(`#direct-messages-list [data-user-ids-string="${hamletId}"] a`);
    await row(iagoPage, 'A word in private').waitFor();
    await iagoPage.fill('#compose-textarea', 'Private reply');
    await iagoPage.press('#compose-textarea', 'Enter');
    await row(hamletPage, 'Private reply').waitFor();
    await browser.screenshot(hamletPage, 'webapp-dm');
  }, 60000);

  it('shows an edit and a delete live', async () => {
    await iagoPage.goto(`${service.origin}/#narrow/channel/${denmark}-Denmark/topic/web.20app`);
    await row(iagoPage, 'Hello from the browser').waitFor();
    const id = Number(await row(iagoPage, 'Hello from the browser').getAttribute('data-message-id'));
    expect(await hamletApi.messages.update({ message_id: id, content: 'Hello, edited' })).toMatchObject({ result: 'success' });
    await row(iagoPage, 'Hello, edited').waitFor();
    expect(await row(iagoPage, 'Hello, edited').innerText()).toContain('EDITED');
    expect(await hamletApi.messages.deleteById({ message_id: id })).toMatchObject({ result: 'success' });
    await iagoPage.locator(`.message_row[data-message-id="${id}"]`).waitFor({ state: 'detached' });
  }, 60000);

  it('keeps the view across a reload', async () => {
    const url = `${service.origin}/#narrow/dm/${hamletId}-King-Hamlet`;
    await iagoPage.goto(url);
    await row(iagoPage, 'Private reply').waitFor();
    await iagoPage.reload();
    await row(iagoPage, 'Private reply').waitFor();
    expect(iagoPage.url()).toBe(url);
    expect(await iagoPage.locator('#message_view_header').innerText()).toBe('King Hamlet');
    expect(await iagoPage.title()).toMatch(/King Hamlet - Zulip Dev - Zulip$/);
    await iagoPage.goBack();
  }, 60000);

  it('refuses, from the page itself, a /json/ write without the CSRF token or with a wrong one', async () => {
    // What a script of the page could send: the session cookie rides along, the token only when given
    // ('page': the one in #logout_form). A string: the tests are type-checked without the DOM's types.
    const send = async (token: string | undefined): Promise<{ status: number; body: { code?: string; msg: string } }> =>
      iagoPage.evaluate(`(async () => {
        const token = ${JSON.stringify(token ?? null)};
        const pageToken = document.querySelector('#logout_form input[name="csrfmiddlewaretoken"]').value;
        const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
        if (token !== null) headers['X-CSRFToken'] = token === 'page' ? pageToken : token;
        const body = new URLSearchParams({ type: 'stream', to: '${denmark}', topic: 'csrf', content: 'forged?' });
        const res = await fetch('/json/messages', { method: 'POST', headers, body });
        return { status: res.status, body: await res.json() };
      })()`);
    expect(await send(undefined)).toMatchObject({ status: 403, body: { code: 'CSRF_FAILED', msg: 'CSRF error: CSRF token missing.' } });
    expect(await send('not-the-token')).toMatchObject({ status: 403, body: { code: 'CSRF_FAILED' } });
    expect(await send('page')).toMatchObject({ status: 200, body: { result: 'success' } });
  }, 60000);

  it("serves upstream's tunnelled PATCH: a POST with method=PATCH edits the message, through the function of PATCH's route", async () => {
    const result = (await iagoPage.evaluate(`(async () => {
      const token = document.querySelector('#logout_form input[name="csrfmiddlewaretoken"]').value;
      const post = (path, fields) => fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-CSRFToken': token },
        body: new URLSearchParams(fields),
      }).then((r) => r.json());
      const sent = await post('/json/messages', { type: 'stream', to: '${denmark}', topic: 'tunnel', content: 'before' });
      const edited = await post('/json/messages/' + sent.id, { method: 'PATCH', content: 'after the tunnelled edit' });
      const read = await fetch('/json/messages/' + sent.id).then((r) => r.json());
      return { edited: edited.result, content: read.message.content };
    })()`)) as { edited: string; content: string };
    expect(result).toEqual({ edited: 'success', content: '<p>after the tunnelled edit</p>' });
  }, 60000);

  it('signs out', async () => {
    await hamletPage.click('button.logout');
    await hamletPage.waitForURL(`${service.origin}/login/`);
    await hamletPage.goto(`${service.origin}/`);
    expect(hamletPage.url()).toBe(`${service.origin}/login/`);
  }, 60000);
});
