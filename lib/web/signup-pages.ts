// The sign-up pages' shared parts (joining from an invitation, creating an organization): the
// pages of a confirmation link that does not work, with upstream's texts, and the page that
// welcomes a new account and says where to go next.
import type { ConfirmationLinkProblem } from '../models/invite';
import type { HttpResponse } from '../http/response';
import { html, type SafeHtml } from './html';
import { box } from './page';
import { messagePage } from './page-handler';

/** Upstream's confirmation/link_*.html pages (404). */
const LINK_PAGES: Record<ConfirmationLinkProblem, { heading: string; paragraphs: string[] }> = {
  malformed: {
    heading: 'Whoops. The confirmation link is malformed.',
    paragraphs: ['Make sure you copied the link correctly in to your browser.'],
  },
  does_not_exist: {
    heading: "Whoops. We couldn't find your confirmation link in the system.",
    paragraphs: ['This confirmation link is not valid. Please check that you copied the whole link, or ask for a new one.'],
  },
  expired: {
    heading: 'Whoops. The confirmation link has expired or been deactivated.',
    paragraphs: ['Please contact your organization administrator for a new link.'],
  },
};

/** The page of a confirmation link that does not work. */
export const confirmationLinkErrorPage = (problem: ConfirmationLinkProblem, realmName?: string): HttpResponse =>
  messagePage(404, { title: 'Invalid link', heading: LINK_PAGES[problem].heading, paragraphs: LINK_PAGES[problem].paragraphs, realmName });

/**
 * What a new account sees: the organization's URL, how to connect the mobile and desktop apps to
 * it, and where the terminal client and bots get their zuliprc (the account page).
 */
export const welcomeContent = (opts: {
  heading: string;
  fullName: string;
  email: string;
  realmName: string;
  url: string;
  /** Signed in at the organization's host already (joining, or a new organization's owner arriving there), or to log in there. */
  signedIn: boolean;
  /** A one-time link that signs the account in at the organization's host (a new organization's owner, at the root). */
  continueUrl?: string;
}): SafeHtml =>
  box(
    opts.heading,
    html`<p>${opts.signedIn ? 'You are signed in as' : 'Your account:'} <strong>${opts.fullName}</strong> (${opts.email}).</p>
      <dl>
        <dt>Organization</dt>
        <dd>${opts.realmName}</dd>
        <dt>Organization URL</dt>
        <dd><a id="realm_url" href="${opts.url}/">${opts.url}</a></dd>
      </dl>
      <h2>Connect the apps</h2>
      <p>In the Zulip mobile or desktop app, choose to add an organization and enter its URL: <code class="key">${opts.url}</code></p>
      <p>Sign in with your email and the password you just chose.</p>
      <h2>Connect the terminal client and bots</h2>
      <p>
        They sign in with your API key. Your account page shows it and lets you download a <code>zuliprc</code> file: save it as
        <code>~/.zuliprc</code>.
      </p>
      <div class="actions">
        ${
          opts.signedIn
            ? html`<a class="button" id="account_link" href="${opts.url}/accounts/">Go to your account</a>`
            : opts.continueUrl !== undefined
              ? html`<a class="button" id="continue_link" href="${opts.continueUrl}">Continue to ${opts.realmName}</a>`
              : html`<a class="button" id="login_link" href="${opts.url}/login/">Log in to ${opts.realmName}</a>`
        }
      </div>`,
  );
