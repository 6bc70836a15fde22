// What the web app's browser tests share: signing a person in on /login/ (recording the page's
// uncaught errors, for the file to check at its end), two people at once, the gear menu, and finding
// a message's row.
import type { Page } from 'playwright-core';
import { devPassword } from '../../lib/passwords';
import type { TestBrowser } from './browser';
import { zulipClient, type E2eService } from './e2e';

/** Signs `email` in with the development password and waits for the app; page errors go to `errors`. */
export const signIn = async (page: Page, origin: string, email: string, errors: string[]): Promise<void> => {
  page.on('pageerror', (error) => errors.push(`${email}: ${error.message}`));
  await page.goto(`${origin}/login/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(devPassword(email));
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForSelector('#left-sidebar');
};

/** Hamlet and Iago, each signed in on a page of their own, with their API clients, ids and Denmark's id. */
export type TwoPeople = {
  hamletPage: Page;
  iagoPage: Page;
  hamletApi: any;
  iagoApi: any;
  denmark: number;
  hamletId: number;
  iagoId: number;
};

/** Signs Hamlet and Iago in, each in a browser context of their own (the two-person browser tests' start). */
export const signInTwoPeople = async (service: E2eService, browser: TestBrowser, errors: string[]): Promise<TwoPeople> => {
  const hamletApi = await zulipClient(service, 'hamlet@zulip.com');
  const iagoApi = await zulipClient(service, 'iago@zulip.com');
  const streams = (await hamletApi.streams.retrieve()).streams as { name: string; stream_id: number }[];
  const users = (await hamletApi.users.retrieve()).members as { email: string; user_id: number }[];
  const idOf = (email: string) => users.find((u) => u.email === email)!.user_id;
  const [hamletPage, iagoPage] = await signInBoth(browser, service.origin, ['hamlet@zulip.com', 'iago@zulip.com'], errors);
  return {
    hamletPage,
    iagoPage,
    hamletApi,
    iagoApi,
    denmark: streams.find((s) => s.name === 'Denmark')!.stream_id,
    hamletId: idOf('hamlet@zulip.com'),
    iagoId: idOf('iago@zulip.com'),
  };
};

/** The row of the message whose text includes `text`. */
export const row = (page: Page, text: string) => page.locator('.message_row[data-message-id]', { hasText: text });

/** The row of a message by its id. */
export const rowOf = (page: Page, id: number) => page.locator(`.message_row[data-message-id="${id}"]`);

/** Opens the menu of a message's row (its ⋮ control, shown on hover). */
export const openMessageMenu = async (page: Page, id: number): Promise<void> => {
  await rowOf(page, id).hover();
  await rowOf(page, id).locator('.message-actions-menu-button').click();
  await page.locator('#message-actions-menu').waitFor();
};

/** The labels of the open menu's items. */
export const menuItems = async (page: Page): Promise<string[]> => page.getByRole('menuitem').allInnerTexts();

/**
 * `read()`'s value once `done` holds for it, read again every 200 ms for up to `ms`; else its last
 * value, for the caller's expect to show what it was.
 */
export const settled = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** Two people signed in at once, each in a browser context of its own: the page of each, in order. */
export const signInBoth = async (
  browser: TestBrowser,
  origin: string,
  emails: [string, string],
  errors: string[],
): Promise<[Page, Page]> => {
  const first = await browser.newPage();
  const second = await browser.newPersonPage();
  await signIn(first, origin, emails[0], errors);
  await signIn(second, origin, emails[1], errors);
  return [first, second];
};

/** Opens an item of the gear menu (upstream's: Channel settings, Organization settings, …). */
export const openGearMenuItem = async (page: Page, item: string): Promise<void> => {
  await page.getByRole('button', { name: 'Main menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
};
