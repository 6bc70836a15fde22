// GET /: the login page for a signed-out person; the web app's page (lib/web/app-shell.ts) for a
// signed-in one, with upstream's hooks (form#logout_form and its CSRF token) and a policy that
// runs no inline script. And GET /static/…: the app's files, kept by the browser for a year.
import { handler as staticHandler } from '../../../functions/web/static';
import { devPassword } from '../../../lib/passwords';
import { buildEvent } from '../../helpers/api';
import { FAKE_MANIFEST, FAKE_SCRIPT, useFakeWebapp } from '../../helpers/fake-webapp';
import { callPage, PageClient } from '../../helpers/web';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

useFakeWebapp();

describe('GET /', () => {
  it('sends a signed-out person to the login page, as upstream', async () => {
    const page = await callPage('/');
    expect(page.status).toBe(302);
    expect(page.headers.Location).toBe('/login/');
    expect(page.body).toBe('');
  });

  it("gives a signed-in person the web app: its built files, the log-out form with the session's CSRF token, no inline script", async () => {
    const browser = new PageClient();
    await browser.logIn('iago@zulip.com', devPassword('iago@zulip.com'));
    const page = await browser.get('/');
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.markup).toContain(`<link rel="stylesheet" href="/static/${FAKE_MANIFEST.css}">`);
    expect(page.markup).toContain(`<script type="module" src="/static/${FAKE_MANIFEST.js}"></script>`);
    expect(page.markup).toContain(`<link rel="icon" href="/static/${FAKE_MANIFEST.favicon}">`);
    expect(page.markup).toContain('<form id="logout_form" action="/accounts/logout/" method="POST" hidden>');
    expect(page.csrfToken).toBe(browser.cookies.csrftoken);
    // Every script is a file of this origin: no inline <script> body, and a policy that forbids one.
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const csp = page.headers['Content-Security-Policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(page.headers['Cache-Control']).toBe('no-store');
    // The token works for the app's /json/ requests and for the log-out form.
    const out = await browser.submit('/accounts/logout/');
    expect(out.headers.Location).toBe('/login/');
    expect((await browser.get('/')).headers.Location).toBe('/login/');
  });
});

const getStatic = async (file: string, acceptEncoding?: string) =>
  staticHandler({
    ...(await buildEvent({ path: `/static/${file}`, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} })),
    rawPath: `/static/${file}`,
    pathParameters: { file },
  });

describe('GET /static/{file+}', () => {
  it('serves a built file with its type, for a year, compressed as the browser accepts', async () => {
    const plain = await getStatic(FAKE_MANIFEST.js);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers).toMatchObject({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(plain.headers['Content-Encoding']).toBeUndefined();
    expect(Buffer.from(plain.body, 'base64').toString()).toBe(FAKE_SCRIPT);
    const br = await getStatic(FAKE_MANIFEST.js, 'gzip, deflate, br');
    expect(br.headers['Content-Encoding']).toBe('br');
    expect(brotliDecompressSync(Buffer.from(br.body, 'base64')).toString()).toBe(FAKE_SCRIPT);
    const gz = await getStatic(FAKE_MANIFEST.js, 'gzip, br;q=0');
    expect(gz.headers['Content-Encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(gz.body, 'base64')).toString()).toBe(FAKE_SCRIPT);
    const font = await getStatic('fonts/KaTeX_Main-Regular-ABCD.woff2', 'br');
    expect(font.headers['Content-Type']).toBe('font/woff2');
    expect(font.headers['Content-Encoding']).toBeUndefined();
    expect([...Buffer.from(font.body, 'base64')]).toEqual([0, 1, 2, 3]);
  });

  it('answers the 404 page for anything else: unknown names, the manifest folder above, dotted or encoded escapes', async () => {
    for (const file of [
      'app-NOPE.js',
      '../package.json',
      '..%2Fpackage.json',
      '.hidden.js',
      'fonts/../manifest.json',
      'manifest',
      '%E0%A4%A',
    ]) {
      const res = await getStatic(file);
      expect({ file, status: res.statusCode, type: res.headers['Content-Type'] }).toEqual({
        file,
        status: 404,
        type: 'text/html; charset=utf-8',
      });
    }
  });
});
