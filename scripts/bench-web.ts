// `npm run bench web`: the web app in Chromium against the local service, for an account of a big
// organization: Iago subscribed to 1,000 more channels with 10,000 unread messages in them (ten a
// channel, five topics each), and one channel of 5,000 messages he has read. Prints what the first load transfers (JavaScript and CSS as sent, compressed;
// KaTeX's fonts load only with math), the time from submitting the login form to a usable feed (a
// message row and the compose box shown) over several fresh browser contexts, and, scrolling back
// through the 5,000 messages of one channel, how many messages the app loaded against the most
// message rows and DOM nodes the page held at once (a windowed list keeps them bounded).
// The app opens on its Inbox, so "usable" is the Inbox listing the conversations with unread
// messages.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Message } from '../lib/models/message';
import { devPassword } from '../lib/passwords';
import { buildChannelItem, buildSubscriptionItem } from '../lib/store/channels';
import { type Item } from '../lib/store/common';
import { buildMessageItem, buildUserMessageItem } from '../lib/store/messages';
import { buildWebapp } from '../webapp/build';
import { benchChannel, benchSubscription, percentile, writeAllItems } from './bench-util';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';
import { startLocalService } from './local-service';

const REALM = 2;
const IAGO = { id: 11, email: 'iago@zulip.com' };
const HAMLET = 10;
const CHANNELS = Number(process.env.BENCH_WEB_CHANNELS ?? 1000);
const UNREAD = Number(process.env.BENCH_WEB_UNREAD ?? 10000);
/** Read messages of the one channel the scroll test reads back through. */
const BIG_CHANNEL_MESSAGES = Number(process.env.BENCH_WEB_HISTORY ?? 5000);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const FIRST_CHANNEL = 300000;
const FIRST_MESSAGE = 3000000;

/** Iago's 1,000 channels and 10,000 unread messages from Hamlet, written straight to the table. */
const growIago = async (): Promise<void> => {
  const now = Math.floor(Date.now() / 1000);
  const items: Item[] = [];
  const lastMessage = new Map<number, number>();
  const messages: Message[] = [];
  for (let i = 0; i < BIG_CHANNEL_MESSAGES + UNREAD; i += 1) {
    const inBig = i < BIG_CHANNEL_MESSAGES;
    const streamId = FIRST_CHANNEL + (inBig ? 0 : 1 + (i % (CHANNELS - 1)));
    // The big channel's messages are read, so its view opens at the newest and the history is above.
    const m: Message = {
      id: FIRST_MESSAGE + i,
      realmId: REALM,
      senderId: HAMLET,
      streamId,
      topic: `topic ${i % 5}`,
      dmUserIds: [],
      content: `<p>Benchmark message ${i}: the quick brown fox jumps over the lazy dog.</p>`,
      dateSent: now - (BIG_CHANNEL_MESSAGES + UNREAD - i),
    };
    messages.push(m);
    lastMessage.set(streamId, m.dateSent);
    items.push(buildMessageItem(m), buildUserMessageItem(m, IAGO.id, inBig ? ['read'] : []));
  }
  for (let i = 0; i < CHANNELS; i += 1) {
    const id = FIRST_CHANNEL + i;
    const first = messages.find((m) => m.streamId === id);
    items.push(
      buildChannelItem({
        ...benchChannel(REALM, id, `web-bench-${i}`),
        subscriberCount: 2,
        firstMessageId: first?.id ?? null,
        lastMessageAt: lastMessage.get(id) ?? null,
      }),
      buildSubscriptionItem(benchSubscription(REALM, IAGO.id, id)),
      buildSubscriptionItem(benchSubscription(REALM, HAMLET, id)),
    );
  }
  await writeAllItems(items);
};

/**
 * Run in the page once it is usable: where the time since the login form's submit went, in ms from
 * the navigation's start (the POST /login/ that redirects to /): the login answered (redirectEnd),
 * the page's HTML arrived, the script ran, POST /json/register was sent and answered, and now.
 */
const TIMELINE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const register = resources.find((e) => e.name.endsWith('/json/register'));
  const script = resources.find((e) => e.name.endsWith('.js'));
  return {
    login: nav.redirectEnd || nav.fetchStart,
    html: nav.responseEnd,
    script: script ? script.responseEnd : -1,
    registerStart: register ? register.startTime : -1,
    registerEnd: register ? register.responseEnd : -1,
    usable: performance.now(),
  };
})()`;

type Timeline = { login: number; html: number; script: number; registerStart: number; registerEnd: number; usable: number };

/** What shows that the first view is usable: a conversation of the Inbox, or a message of a feed. */
const USABLE = '#inbox-main .inbox_row, .message_row';

/** Signs in through the login form; ms from the submit to a usable feed, and the JS and CSS bytes sent. */
const signInAndWait = async (
  browser: Browser,
  origin: string,
): Promise<{ ms: number; timeline: Timeline; jsBytes: number; cssBytes: number }> => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Promise<{ type: string; bytes: number }>[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (/javascript|text\/css/.test(type))
      sizes.push(
        response
          .request()
          .sizes()
          .then((s) => ({ type, bytes: s.responseBodySize })),
      );
  });
  await page.goto(`${origin}/login/`);
  await page.fill('input[name="username"]', IAGO.email);
  await page.fill('input[name="password"]', devPassword(IAGO.email));
  const started = performance.now();
  await page.click('button[type="submit"]');
  // The app opens on its Inbox: usable once the conversations with unread messages are listed.
  await page.locator(USABLE).first().waitFor({ timeout: 60000 });
  const ms = performance.now() - started;
  const timeline = (await page.evaluate(TIMELINE)) as Timeline;
  const sent = await Promise.all(sizes);
  const sum = (re: RegExp) => sent.filter((s) => re.test(s.type)).reduce((a, s) => a + s.bytes, 0);
  await context.close();
  return { ms, timeline, jsBytes: sum(/javascript/), cssBytes: sum(/css/) };
};

/**
 * Run in the page (a string: the scripts are type-checked without the DOM's types): scrolls the
 * feed (#message_feed_container) to its top and tells which message rows exist and how many nodes.
 */
const SCROLL_TO_TOP = `(() => {
  const scroller = document.getElementById('message_feed_container');
  if (scroller) scroller.scrollTop = 0;
  const rows = [...document.querySelectorAll('.message_row[data-message-id]')];
  return { ids: rows.map((r) => Number(r.getAttribute('data-message-id'))), nodes: document.getElementsByTagName('*').length };
})()`;

/** Scrolls the big channel's feed back to its first message; what was loaded, and the most rows and nodes held at once. */
const scrollBack = async (page: Page): Promise<{ loaded: number; maxRows: number; maxNodes: number; seconds: number }> => {
  // The big channel's ids are contiguous: how far back the feed got is its newest less the oldest shown.
  const newest = FIRST_MESSAGE + BIG_CHANNEL_MESSAGES - 1;
  let oldest = newest;
  let maxRows = 0;
  let maxNodes = 0;
  let idle = 0;
  const started = performance.now();
  while (oldest > FIRST_MESSAGE && idle < 40) {
    const state = (await page.evaluate(SCROLL_TO_TOP)) as { ids: number[]; nodes: number };
    const shown = Math.min(oldest, ...state.ids.filter((id) => id >= FIRST_MESSAGE && id <= newest));
    idle = shown < oldest ? 0 : idle + 1;
    oldest = shown;
    maxRows = Math.max(maxRows, state.ids.length);
    maxNodes = Math.max(maxNodes, state.nodes);
    await page.waitForTimeout(100);
  }
  return { loaded: newest - oldest + 1, maxRows, maxNodes, seconds: (performance.now() - started) / 1000 };
};

export const benchWeb = async (): Promise<void> => {
  console.log(`\n## The web app (Chromium): Iago with ${CHANNELS} more channels and ${UNREAD} unread messages\n`);
  await growIago();
  const dist = mkdtempSync(join(tmpdir(), 'chat-bench-webapp-'));
  await buildWebapp({ outdir: dist });
  const service = await startLocalService({
    port: 0,
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT,
    env: { WEBAPP_DIST: dist, REQUEST_LOG: 'off' },
    log: () => undefined,
    offlineLog: () => undefined,
  });
  const origin = new URL(service.baseUrl).origin;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    const runs: Awaited<ReturnType<typeof signInAndWait>>[] = [];
    // The first run warms the functions up (serverless-offline loads each handler on first use).
    await signInAndWait(browser, origin);
    for (let i = 0; i < RUNS; i += 1) runs.push(await signInAndWait(browser, origin));
    const times = runs.map((r) => r.ms);
    const { jsBytes, cssBytes } = runs[0];
    console.log(
      `first load sends JavaScript ${(jsBytes / 1024).toFixed(1)} KB and CSS ${(cssBytes / 1024).toFixed(1)} KB compressed: ${((jsBytes + cssBytes) / 1024).toFixed(1)} KB (goal ≤ 150 KB, fonts apart)`,
    );
    const p50 = (f: (t: Timeline) => number) =>
      percentile(
        runs.map((r) => f(r.timeline)),
        50,
      ).toFixed(0);
    console.log(
      `login form submitted → the Inbox listing the unread conversations, ${RUNS} fresh contexts: p50 ${percentile(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (goal ≤ 2,000 ms); of which POST /json/register p50 ${p50((t) => t.registerEnd - t.registerStart)} ms`,
    );
    console.log(
      `  p50 of each step: POST /login/ ${p50((t) => t.login)} ms, the page ${p50((t) => t.html - t.login)} ms, its script ${p50((t) => t.script - t.html)} ms, until register is sent ${p50((t) => t.registerStart - t.script)} ms, register ${p50((t) => t.registerEnd - t.registerStart)} ms, register answered → Inbox shown ${p50((t) => t.usable - t.registerEnd)} ms`,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/login/`);
    await page.fill('input[name="username"]', IAGO.email);
    await page.fill('input[name="password"]', devPassword(IAGO.email));
    await page.click('button[type="submit"]');
    await page.locator(USABLE).first().waitFor({ timeout: 60000 });
    await page.goto(`${origin}/#narrow/channel/${FIRST_CHANNEL}-web-bench-0`);
    await page.locator('.message_row').first().waitFor({ timeout: 60000 });
    const scroll = await scrollBack(page);
    console.log(
      `scrolling back through #web-bench-0 (${BIG_CHANNEL_MESSAGES} messages): ${scroll.loaded} loaded in ${scroll.seconds.toFixed(1)} s; at most ${scroll.maxRows} message rows and ${scroll.maxNodes} DOM nodes at once`,
    );
    await context.close();
  } finally {
    await browser.close();
    await service.stop();
  }
};
