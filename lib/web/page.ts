// The page layout and form parts every server-rendered page shares (login, account, and the
// sign-up pages to come): one plain, accessible HTML document per response, which works without
// JavaScript (none is served) and is styled by a small inline style sheet. Upstream's texts.
import type { HttpResponse } from '../http/response';
import { html, SafeHtml } from './html';

/** A form field: always labelled (`<label for>`), with the id `id_<name>` as upstream's forms. */
export type Field = {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  /** The autocomplete token (`username`, `current-password`, `new-password`, `email`, `name`, ...). */
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  autofocus?: boolean;
  /** A line of help under the field, tied to it with aria-describedby. */
  hint?: string;
};

/** What every form needs from its page: the CSRF token of this response (lib/http/csrf.ts). */
export type FormContext = { csrfToken: string };

/** The CSRF token as the hidden field every POST form carries (Django's name). */
export const CSRF_FIELD = 'csrfmiddlewaretoken';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f5f6f8}
header{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.75rem 1.5rem;background:#fff;border-bottom:1px solid #dcdfe4}
header .brand{font-weight:700;font-size:1.15rem;color:#1f2328;text-decoration:none}
header .realm{color:#5c6370}
main{max-width:34rem;margin:2.5rem auto;padding:0 1rem}
.box{background:#fff;border:1px solid #dcdfe4;border-radius:8px;padding:1.5rem 1.75rem}
h1{font-size:1.6rem;margin:0 0 1.25rem;text-align:center}
h2{font-size:1.2rem;margin:1.5rem 0 .75rem}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;margin-bottom:.3rem}
input[type=text],input[type=email],input[type=password]{width:100%;padding:.55rem .7rem;font:inherit;border:1px solid #a8afba;border-radius:5px}
input:focus,button:focus,a:focus{outline:3px solid #6492fe;outline-offset:1px}
.hint{font-size:.875rem;color:#5c6370;margin:.25rem 0 0}
button,.button{display:inline-block;padding:.55rem 1.1rem;font:inherit;font-weight:600;color:#fff;background:#2c5fd8;border:0;border-radius:5px;cursor:pointer;text-decoration:none}
button.full-width{width:100%}
button.secondary{background:#fff;color:#2c5fd8;border:1px solid #2c5fd8}
.alert{padding:.75rem 1rem;border-radius:5px;margin-bottom:1rem;border:1px solid #e0b4b4;background:#fff6f6;color:#8a1f11}
.alert.info{border-color:#a9d5de;background:#f3fafc;color:#1d4c57}
.key{font-family:ui-monospace,Menlo,Consolas,monospace;background:#f0f2f5;padding:.4rem .6rem;border-radius:4px;word-break:break-all;display:block}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:0}
dt{font-weight:600}dd{margin:0;word-break:break-word}
.below-form{text-align:center;margin:1rem 0 0}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;align-items:center;margin-top:1rem}
.account-list{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.5rem}
.dev-login-button{text-align:left;font-weight:400}
.dev-login-button .name{display:block;font-weight:600}
.dev-login-button .email{display:block;font-size:.875rem;color:#5c6370;word-break:break-all}
`;

/**
 * A whole page: `<title>` as upstream's ("Log in | Zulip"), a header naming the organization, and
 * for a signed-in person their name and the log-out button (a POST form with the CSRF token).
 */
export const layout = (opts: {
  title: string;
  content: SafeHtml;
  realmName?: string;
  signedIn?: { fullName: string; csrfToken: string };
}): SafeHtml =>
  html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${opts.title} | Zulip</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <header>
          <div>
            <a class="brand" href="/login/">Zulip</a>${opts.realmName !== undefined && html` <span class="realm">${opts.realmName}</span>`}
          </div>
          ${opts.signedIn && logoutForm(opts.signedIn)}
        </header>
        <main>${opts.content}</main>
      </body>
    </html> `;

const logoutForm = (signedIn: { fullName: string; csrfToken: string }): SafeHtml =>
  html`<form method="post" action="/accounts/logout/" id="logout_form">
    <span>${signedIn.fullName}</span>
    ${csrfInput({ csrfToken: signedIn.csrfToken })}
    <button type="submit" class="secondary">Log out</button>
  </form>`;

const csrfInput = (ctx: FormContext): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrfToken}" />`;

/** One labelled input. */
export const field = (f: Field): SafeHtml => {
  const id = `id_${f.name}`;
  return html`<div class="field">
    <label for="${id}">${f.label}</label>
    <input
      id="${id}"
      name="${f.name}"
      type="${f.type ?? 'text'}"
      ${f.value !== undefined && html` value="${f.value}"`}${
        f.autocomplete && html` autocomplete="${f.autocomplete}"`
      }${f.maxlength !== undefined && html` maxlength="${f.maxlength}"`}${f.required !== false && html` required`}${f.autofocus && html` autofocus`}${
        f.hint && html` aria-describedby="${id}_hint"`
      }
    />
    ${f.hint && html`<p class="hint" id="${id}_hint">${f.hint}</p>`}
  </div>`;
};

/** The errors of a form, announced to screen readers. */
const formErrors = (errors: readonly string[]): SafeHtml | false =>
  errors.length > 0 && html`<div class="alert alert-error" role="alert">${errors.map((e) => html`<div>${e}</div>`)}</div>`;

/** A POST form: CSRF token, errors, labelled fields, then the submit button. */
export const postForm = (
  ctx: FormContext,
  opts: { action: string; fields: Field[]; submit: string; errors?: readonly string[]; name?: string; before?: SafeHtml },
): SafeHtml =>
  html`<form method="post" action="${opts.action}" ${opts.name && html` name="${opts.name}" id="${opts.name}"`}>
    ${csrfInput(ctx)} ${opts.before} ${formErrors(opts.errors ?? [])} ${opts.fields.map(field)}
    <button type="submit" class="full-width">${opts.submit}</button>
  </form>`;

/** A page's box: a heading and its content. */
export const box = (heading: string, content: SafeHtml): SafeHtml =>
  html`<div class="box">
    <h1>${heading}</h1>
    ${content}
  </div>`;

/** Headers every page carries: never cached (pages hold keys and tokens), never framed, no scripts at all. */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** An HTML response; `cookies` become Set-Cookie headers (API Gateway's payload 2.0 `cookies`). */
export const htmlResponse = (statusCode: number, page: SafeHtml, cookies: string[] = []): HttpResponse => ({
  statusCode,
  headers: { ...PAGE_HEADERS },
  body: page.value,
  ...(cookies.length > 0 ? { cookies } : {}),
});

/** A 302 to a path of this site (never elsewhere: no open redirect), with cookies to set. */
export const redirectTo = (path: string, cookies: string[] = []): HttpResponse => {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`not a local path: ${path}`);
  return {
    statusCode: 302,
    headers: { ...PAGE_HEADERS, Location: path },
    body: '',
    ...(cookies.length > 0 ? { cookies } : {}),
  };
};
