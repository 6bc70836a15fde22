// The web app's page: what `/` answers a signed-in person. An empty shell that loads the built app
// (lib/web/assets.ts manifest) from /static/, with upstream's hooks the app and the desktop app
// rely on: `form#logout_form` (POST /accounts/logout/) with the CSRF token in its hidden
// `csrfmiddlewaretoken` field, which the app also sends as X-CSRFToken with its /json/ requests.
// Its Content-Security-Policy allows scripts from this origin only, never inline ones.
import type { HttpResponse } from '../http/response';
import { webappManifest } from './assets';
import { html } from './html';

/**
 * Scripts and connections from this origin only. Styles may be inline: the server's rendered
 * messages carry KaTeX's `style` attributes. Images from anywhere over HTTPS (avatars, previews).
 */
const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' https:",
  "frame-src 'self' https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** The shell of the app for a signed-in person; `csrfToken` is their session's (the page wrapper's). */
export const appShell = (opts: { csrfToken: string; realmName: string }): HttpResponse => {
  const { js, css, favicon } = webappManifest();
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.realmName} - Zulip</title>
        <link rel="icon" href="/static/${favicon}" />
        <link rel="stylesheet" href="/static/${css}" />
        <script type="module" src="/static/${js}"></script>
      </head>
      <body>
        <div id="app"></div>
        <noscript
          ><p>The Zulip web app needs JavaScript. <a href="/accounts/">Your account</a> works without it.</p></noscript
        >
        <form id="logout_form" action="/accounts/logout/" method="POST" hidden>
          <input type="hidden" name="csrfmiddlewaretoken" value="${opts.csrfToken}" />
        </form>
      </body>
    </html>`;
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': APP_CSP,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    },
    body: page.toString(),
  };
};
