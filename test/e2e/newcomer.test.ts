// The newcomer's first minute, in a real browser (headless Chromium) through serverless-offline as
// `npm start` serves it: the organization's address leads to the login page, which links to the
// development login; one click there signs in. Whatever a browser asks for that no page serves
// (/favicon.ico, a mistyped address) gets the service's own 404, compressed or not.
import { useBrowser } from '../helpers/browser';
import { useLocalService } from '../helpers/e2e';
import { rawGet } from '../helpers/raw-get';

const service = useLocalService();
const browser = useBrowser();

/** A raw GET of a path of the service. */
const rawGetPath = (path: string, acceptEncoding?: string) => rawGet(new URL(path, service.origin).href, acceptEncoding);

describe("e2e: the newcomer's first minute", () => {
  it('goes from the address to the login page, to the development login, and signs in with a click', async () => {
    const page = await browser.newPage();
    await page.goto(`${service.origin}/`);
    expect(page.url()).toBe(`${service.origin}/login/`);
    await page.getByRole('link', { name: 'log in as any user, without a password' }).click();
    await page.waitForURL(`${service.origin}/devlogin/`);
    expect(await page.title()).toBe('Log in | Zulip');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Click on a user to log in to Zulip Dev!');
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual([
      'Owners',
      'Administrators',
      'Moderators',
      'Guest users',
      'Normal users',
    ]);
    await browser.screenshot(page, 'devlogin');

    await page.getByRole('button', { name: /iago@zulip\.com/ }).click();
    // `/` is the web app for a signed-in person; the account page a link away.
    await page.waitForURL(`${service.origin}/`);
    await page.locator('#app').waitFor();
    await page.goto(`${service.origin}/accounts/`);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Iago');
    expect(main).toContain('iago@zulip.com');
    expect(await page.locator('header').innerText()).toContain('Log out');
    await browser.screenshot(page, 'devlogin-signed-in');
    await page.close();
  }, 120000);

  it('shows the 404 page for /favicon.ico and a mistyped address', async () => {
    const page = await browser.newPage();
    for (const path of ['/favicon.ico', '/nope']) {
      const response = await page.goto(`${service.origin}${path}`);
      expect(response!.status()).toBe(404);
      expect(await page.title()).toBe('Page not found | Zulip');
      expect(await page.locator('main').innerText()).toContain('There is no page at this address.');
    }
    await browser.screenshot(page, 'not-found');
    await page.close();
  }, 60000);

  it.each([[undefined], ['gzip, deflate, br']])(
    "answers unknown paths with the service's own 404 (Accept-Encoding: %s)",
    async (acceptEncoding) => {
      for (const path of ['/favicon.ico', '/nope', '/nope/deeper/']) {
        const answer = await rawGetPath(path, acceptEncoding);
        expect({ path, status: answer.status, type: answer.type }).toEqual({ path, status: 404, type: 'text/html; charset=utf-8' });
        expect(answer.text).toContain('<title>Page not found | Zulip</title>');
        expect(answer.text).not.toContain('Serverless-offline');
      }
      for (const path of ['/api/v1/nope', '/api/v2/users', '/json/nope']) {
        const answer = await rawGetPath(path, acceptEncoding);
        expect({ path, status: answer.status, body: JSON.parse(answer.text) }).toEqual({
          path,
          status: 404,
          body: { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' },
        });
      }
    },
    60000,
  );
});
