// A real browser for the end-to-end tests of the web pages: Debian's Chromium (/usr/bin/chromium,
// installed by .ci/run) driven by playwright-core, which never downloads a browser of its own.
// Each test file gets a fresh profile (its own user data directory, removed afterwards), so no
// cookie or cache survives from one file to the next. Screenshots go to CHAT_SCREENSHOTS (a
// directory; by default one under the system's temporary directory), to be looked at.
//
//   const browser = useBrowser();
//   const page = await browser.newPage();
//   await page.goto(`${service.origin}/login/`);
//   await browser.screenshot(page, 'login');
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The flags of a quiet, headless run that reaches nothing but the service under test. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type TestBrowser = {
  newPage: () => Promise<Page>;
  /** Saves a full-page PNG named `<name>.png` and returns its path. */
  screenshot: (page: Page, name: string) => Promise<string>;
};

export const useBrowser = (): TestBrowser => {
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  const shots = process.env.CHAT_SCREENSHOTS ?? join(tmpdir(), 'chat-screenshots');

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'chat-chromium-'));
    // A persistent context is how Playwright takes a user data directory (it refuses --user-data-dir in args).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      acceptDownloads: true,
      viewport: { width: 1000, height: 760 },
    });
  }, 60000);

  afterAll(async () => {
    await context?.close();
    context = undefined;
    if (profile) rmSync(profile, { recursive: true, force: true });
  }, 30000);

  return {
    newPage: () => {
      if (!context) throw new Error('the browser is not running (did its beforeAll fail?)');
      return context.newPage();
    },
    screenshot: async (page, name) => {
      mkdirSync(shots, { recursive: true });
      const file = join(shots, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
};
