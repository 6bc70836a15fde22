// A real browser for the end-to-end tests of the web pages: Debian's Chromium (/usr/bin/chromium,
// installed by .ci/run) driven by playwright-core, which never downloads a browser of its own.
// One Chromium per jest worker, shared by the files that worker runs one after the other (as
// e2e-shared.ts shares serverless-offline): launching one per file failed on a loaded 2-core
// machine. It runs as a Playwright browser server in its own process group, registered like the
// worker's serverless-offline, so globalTeardown stops it, and a watchdog if the worker dies. Each
// test file gets a fresh browser context (its own cookies, storage and cache, closed afterwards),
// so nothing survives from one file to the next. Screenshots go to CHAT_SCREENSHOTS (a directory;
// by default one under the system's temporary directory), to be looked at.
//
//   const browser = useBrowser();
//   const page = await browser.newPage();
//   await page.goto(`${service.origin}/login/`);
//   await browser.screenshot(page, 'login');
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
import { processAlive as alive, stopProcessGroupOf, watchOwner } from '../../scripts/local-service';
import { registryPrefix } from './e2e-shared';

import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium';

/**
 * Time limits that hold on a loaded 2-core machine (two workers, DynamoDB Local, serverless-offline
 * and the other developer's tests): Chromium's start there has taken well over Playwright's 30 s.
 */
const LAUNCH_TIMEOUT_MS = 180_000;
const CONNECT_TIMEOUT_MS = 60_000;

type Registered = { pid: number; wsEndpoint: string };

const registryFile = (): string => join(tmpdir(), `${registryPrefix()}browser-${process.pid}.json`);

// The browser server's process: writes its endpoint to the registry file once Chromium runs, then
// stays until it is stopped (its process group, by globalTeardown or the watchdog).
const SERVER_SCRIPT = `
const [playwright, file, options] = process.argv.slice(1);
const { writeFileSync, renameSync } = require('node:fs');
require(playwright).chromium.launchServer(JSON.parse(options)).then((server) => {
  writeFileSync(file + '.tmp', JSON.stringify({ pid: process.pid, wsEndpoint: server.wsEndpoint() }));
  renameSync(file + '.tmp', file);
}, (error) => { console.error(error); process.exit(1); });
`;

/** This worker's browser server, started on first use. */
const workerBrowser = async (): Promise<Registered> => {
  const file = registryFile();
  if (existsSync(file)) {
    const found = JSON.parse(readFileSync(file, 'utf8')) as Registered;
    if (alive(found.pid)) return found;
    rmSync(file, { force: true });
  }
  const options = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS };
  const log = openSync(join(tmpdir(), `${registryPrefix()}browser-${process.pid}.log`), 'a');
  try {
    const child = spawn(process.execPath, ['-e', SERVER_SCRIPT, require.resolve('playwright-core'), file, JSON.stringify(options)], {
      detached: true,
      stdio: ['ignore', log, log],
    });
    watchOwner(child, true);
    // It outlives this test file (the next file of the worker uses it): globalTeardown stops it.
    child.unref();
    const deadline = Date.now() + LAUNCH_TIMEOUT_MS + 10_000;
    while (!existsSync(file)) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`the browser server exited (${child.exitCode ?? child.signalCode})`);
      if (Date.now() > deadline) {
        await stopProcessGroupOf(child.pid!, new Promise((resolve) => child.once('exit', () => resolve())));
        throw new Error(`Chromium did not start within ${LAUNCH_TIMEOUT_MS / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return JSON.parse(readFileSync(file, 'utf8')) as Registered;
  } finally {
    closeSync(log);
  }
};

export type TestBrowser = {
  newPage: () => Promise<Page>;
  /** A page in a browser context of its own (its own cookies): a second person signed in at the same time. */
  newPersonPage: () => Promise<Page>;
  /** Saves a full-page PNG named `<name>.png` and returns its path. */
  screenshot: (page: Page, name: string) => Promise<string>;
};

/**
 * How long a page action or navigation may take (Playwright's default is 30 s): a page load that
 * first loads its functions under serverless-offline took longer on a loaded 2-core machine.
 */
const PAGE_TIMEOUT_MS = 60_000;

export const useBrowser = (): TestBrowser => {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const others: BrowserContext[] = [];
  const shots = process.env.CHAT_SCREENSHOTS ?? join(tmpdir(), 'chat-screenshots');

  beforeAll(
    async () => {
      const { wsEndpoint } = await workerBrowser();
      browser = await chromium.connect(wsEndpoint, { timeout: CONNECT_TIMEOUT_MS });
      context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1000, height: 760 } });
      context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    },
    LAUNCH_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 20_000,
  );

  afterAll(async () => {
    await context?.close();
    for (const other of others.splice(0)) await other.close();
    // A connected browser's close() only disconnects: the worker's next file uses the same Chromium.
    await browser?.close();
    context = undefined;
    browser = undefined;
  }, 30000);

  return {
    newPage: () => {
      if (!context) throw new Error('the browser is not running (did its beforeAll fail?)');
      return context.newPage();
    },
    newPersonPage: async () => {
      if (!browser) throw new Error('the browser is not running (did its beforeAll fail?)');
      const other = await browser.newContext({ viewport: { width: 1000, height: 760 } });
      other.setDefaultTimeout(PAGE_TIMEOUT_MS);
      others.push(other);
      return other.newPage();
    },
    screenshot: async (page, name) => {
      mkdirSync(shots, { recursive: true });
      const file = join(shots, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
};

/** A download's content as text (a browser connected to its server has no local download path). */
export const downloadedText = async (download: Download): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};
