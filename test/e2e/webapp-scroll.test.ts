// The web app's feed scrolled back in a real browser (headless Chromium): a channel of a few hundred
// messages, held at its top, keeps fetching older messages until its first one, keeps the row the
// reader was looking at in place when older ones arrive above it, and keeps the DOM to a window of
// rows. And the Inbox collapses a channel's folder and remembers it across a reload.
import type { Page } from 'playwright-core';
import { devPassword } from '../../lib/passwords';
import { useBrowser } from '../helpers/browser';
import { useLocalService, zulipClient } from '../helpers/e2e';
import { storeMessage } from '../helpers/stored-messages';

const service = useLocalService();
const browser = useBrowser();

const IAGO = 'iago@zulip.com';
const MESSAGES = 320;
const errors: string[] = [];

const label = (i: number) => `Scrollback ${String(i).padStart(4, '0')}`;

/** Run in the page (a string: the tests are type-checked without the DOM's types). */
const FEED_STATE = `(() => {
  const rows = [...document.querySelectorAll('.message_row[data-message-id]')];
  return { rows: rows.length, texts: rows.map((r) => r.querySelector('.message_content').textContent.trim()) };
})()`;

const scrollFeedTo = (page: Page, top: number) => page.evaluate(`document.getElementById('message_feed_container').scrollTop = ${top}`);

describe('e2e: the web app scrolls back through a channel', () => {
  let page: Page;
  let channelId: number;

  beforeAll(async () => {
    const iago = await zulipClient(service, IAGO);
    await iago.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'scrollback' }]) });
    const streams = (await iago.streams.retrieve()).streams as { name: string; stream_id: number }[];
    channelId = streams.find((s) => s.name === 'scrollback')!.stream_id;
    const me = (await iago.users.me.getProfile()) as { user_id: number };
    // Sent by Iago, so read for him: the channel opens at its newest message, the history above.
    for (let i = 0; i < MESSAGES; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          storeMessage({ sender: me.user_id, channelId, topic: `topic ${(i + j) % 3}`, content: label(i + j) }),
        ),
      );
    page = await browser.newPersonPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${service.origin}/login/`);
    await page.getByLabel('Email').fill(IAGO);
    await page.getByLabel('Password').fill(devPassword(IAGO));
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForSelector('#left-sidebar');
  }, 120000);

  afterAll(() => {
    expect(errors).toEqual([]);
  });

  it('keeps fetching older messages while held at the top, to the first, with a bounded DOM', async () => {
    await page.goto(`${service.origin}/#narrow/channel/${channelId}-scrollback`);
    await page.locator('.message_row', { hasText: label(MESSAGES - 1) }).waitFor();

    // Messages are stored concurrently, ten at a time: which one is oldest depends on the ids given.
    const first = page.locator('.message_row').filter({ hasText: /Scrollback 000\d/ });
    let maxRows = 0;
    const deadline = Date.now() + 45_000;
    while ((await first.count()) === 0 && Date.now() < deadline) {
      await scrollFeedTo(page, 0);
      maxRows = Math.max(maxRows, ((await page.evaluate(FEED_STATE)) as { rows: number }).rows);
      await page.waitForTimeout(100);
    }
    expect(await first.count()).toBeGreaterThan(0);
    // A window of rows around the viewport, never the whole channel.
    expect(maxRows).toBeGreaterThan(5);
    expect(maxRows).toBeLessThan(80);
    await browser.screenshot(page, 'webapp-scrolled-back');
  }, 90000);

  it('keeps the row the reader was looking at in place when older messages arrive above it', async () => {
    await page.goto(`${service.origin}/#inbox`);
    await page.goto(`${service.origin}/#narrow/channel/${channelId}-scrollback`);
    await page.locator('.message_row', { hasText: label(MESSAGES - 1) }).waitFor();
    // Scroll to near the top of what is loaded (100 messages): the next page is fetched.
    await scrollFeedTo(page, 200);
    await page.waitForTimeout(300);
    const probe = `(() => {
      const box = document.getElementById('message_feed_container').getBoundingClientRect();
      const rows = [...document.querySelectorAll('.message_row[data-message-id]')];
      const seen = rows.find((r) => r.getBoundingClientRect().top >= box.top);
      return { id: seen.getAttribute('data-message-id'), top: seen.getBoundingClientRect().top, rows: rows.length };
    })()`;
    const before = (await page.evaluate(probe)) as { id: string; top: number };
    // Wait for the older page to arrive (the loaded count grows) without touching the scroll position.
    await page.waitForTimeout(3000);
    const row = page.locator(`.message_row[data-message-id="${before.id}"]`);
    expect(await row.count()).toBe(1);
    const after = (await row.boundingBox())!;
    expect(Math.abs(after.y - before.top)).toBeLessThan(2);
  }, 60000);

  it('collapses a channel in the Inbox and remembers it across a reload', async () => {
    const hamlet = await zulipClient(service, 'hamlet@zulip.com');
    await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'inbox folders', content: 'Collapse me' });
    await page.goto(`${service.origin}/#inbox`);
    const denmark = page.locator('#inbox-main .inbox_folder_header', { hasText: '#Denmark' });
    const topic = page.locator('#inbox-main .inbox_row[data-topic-name="inbox folders"]');
    await topic.waitFor();
    await denmark.locator('button.inbox_collapse').click();
    await topic.waitFor({ state: 'detached' });
    expect(await denmark.locator('.unread_count').innerText()).toMatch(/^\d+$/);
    await page.reload();
    await denmark.waitFor();
    expect(await topic.count()).toBe(0);
    await denmark.locator('button.inbox_collapse').click();
    await topic.waitFor();
    await browser.screenshot(page, 'webapp-inbox-folders');
  }, 60000);
});
