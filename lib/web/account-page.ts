// The account page's parts, shared by GET /accounts/ and POST /accounts/api_key/ (which shows the
// page again with its error): who is signed in, and upstream's "Your API key" steps as plain forms.
import type { User } from '../models/user';
import { zuliprc } from '../models/zuliprc';
import { html, type SafeHtml } from './html';
import { box, postForm, type FormContext } from './page';

/** The account page, with the API key form (and its errors, after a wrong password). */
export const accountPage = (form: FormContext, user: User, realmName: string, site: string, errors: string[] = []): SafeHtml =>
  box(
    'Account & privacy',
    html`<dl>
        <dt>Name</dt>
        <dd>${user.fullName}</dd>
        <dt>Email</dt>
        <dd>${user.email}</dd>
        <dt>Organization</dt>
        <dd>${realmName} (${site})</dd>
      </dl>
      <h2 id="api-key-heading">API key</h2>
      <p>
        Your API key lets the terminal client, bots and other apps use Zulip as you. Please re-enter your password to confirm your identity.
      </p>
      ${postForm(form, {
        action: '/accounts/api_key/',
        name: 'api_key_form',
        errors,
        submit: 'Get API key',
        fields: [{ name: 'password', label: 'Your password', type: 'password', autocomplete: 'current-password' }],
      })}`,
  );

/**
 * The revealed key and the zuliprc download: a data: link with `download="zuliprc"`, as upstream's
 * dialog offers it, so the file needs neither JavaScript nor a second request that would have to
 * ask for the password again.
 */
export const apiKeyPage = (account: { email: string; apiKey: string; site: string }): SafeHtml =>
  box(
    'Your API key',
    html`<p>Your API key:</p>
      <p><code class="key" id="api_key_value">${account.apiKey}</code></p>
      <p>
        Anyone with this key can act as you: keep it secret. The <code>zuliprc</code> file holds it with your email and this organization's
        URL; save it as <code>~/.zuliprc</code> for the terminal client and bots.
      </p>
      <div class="actions">
        <a
          class="button"
          id="download_zuliprc"
          download="zuliprc"
          href="data:application/octet-stream;charset=utf-8,${encodeURIComponent(zuliprc(account))}"
          >Download zuliprc</a
        >
        <a href="/accounts/">Back to your account</a>
      </div>`,
  );
