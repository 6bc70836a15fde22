// GET /new/<key>/: the new-organization form of a realm creation link (npm run
// create-realm-link); POST: creates the organization with its owner, signs the owner in at the
// organization's URL, and shows where to go. Served at the service's root, whatever the host.
import { checkCreateRealm, isValidRealmCreationKey } from '../../lib/actions/way-in/create-realm';
import { handOffLogin } from '../../lib/actions/way-in/web-sessions';
import { rawString } from '../../lib/http/params';
import { realmUrl } from '../../lib/models/realm';
import { config } from '../../lib/config';
import { html } from '../../lib/web/html';
import { box, postForm } from '../../lib/web/page';
import { messagePage, rootPageHandler, type RootPageContext } from '../../lib/web/page-handler';
import { welcomeContent } from '../../lib/web/signup-pages';

/** Upstream's realm_creation_link_invalid.html. */
const invalidLinkPage = () =>
  messagePage(200, {
    title: 'Organization creation link expired or invalid',
    paragraphs: [
      'The organization creation link has expired or is not valid.',
      'Please ask the administrator of this server for a new link (npm run create-realm-link).',
    ],
  });

type Values = { realm_name?: string; realm_subdomain?: string; email?: string; full_name?: string };

const newRealmForm = (ctx: RootPageContext, key: string, values: Values, errors: string[] = []) => {
  const root = new URL(config.externalUrl());
  return ctx.page(
    errors.length > 0 ? 400 : 200,
    'Create a new organization',
    box(
      'Create a new Zulip organization',
      postForm(ctx.form, {
        action: `/new/${key}/`,
        name: 'create_realm',
        errors,
        submit: 'Create organization',
        before: html`<p>Your organization will be at <code>&lt;subdomain&gt;.${root.host}</code>.</p>`,
        fields: [
          {
            name: 'realm_name',
            label: 'Organization name',
            value: values.realm_name,
            maxlength: 40,
            autofocus: true,
            autocomplete: 'organization',
          },
          {
            name: 'realm_subdomain',
            label: 'Organization URL',
            value: values.realm_subdomain,
            maxlength: 40,
            autocomplete: 'off',
            hint: `Lowercase letters, numbers and '-': the subdomain of ${root.host}.`,
          },
          { name: 'email', label: 'Your email', type: 'email', value: values.email, maxlength: 254, autocomplete: 'email' },
          { name: 'full_name', label: 'Your name', value: values.full_name, maxlength: 100, autocomplete: 'name' },
          { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 6 characters.' },
        ],
      }),
    ),
  );
};

export const handler = rootPageHandler(async (ctx) => {
  const key = ctx.event.pathParameters?.creation_key ?? '';
  if (!(await isValidRealmCreationKey(key))) return invalidLinkPage();
  if (ctx.event.requestContext.http.method !== 'POST') return newRealmForm(ctx, key, {});
  const values = ctx.params({
    realm_name: rawString().default(''),
    realm_subdomain: rawString().default(''),
    email: rawString().default(''),
    full_name: rawString().default(''),
    password: rawString().default(''),
  });
  const created = await checkCreateRealm(key, {
    realmName: values.realm_name,
    subdomain: values.realm_subdomain,
    email: values.email,
    fullName: values.full_name,
    password: values.password,
  });
  if (created === 'link_invalid') return invalidLinkPage();
  if ('errors' in created) return newRealmForm(ctx, key, values, created.errors);
  // The page is the root's host, and a session cookie is its host's only (the organization is at
  // its subdomain): a one-time link signs the owner in there. A link, not a redirect: the pages'
  // Content-Security-Policy (form-action 'self') stops a form's redirect to another host.
  const token = await handOffLogin(created.realm, created.owner);
  return ctx.page(
    200,
    'Organization created',
    welcomeContent({
      heading: `${created.realm.name} is ready`,
      fullName: created.owner.fullName,
      email: created.owner.email,
      realmName: created.realm.name,
      url: realmUrl(created.realm),
      signedIn: false,
      continueUrl: `${realmUrl(created.realm)}/accounts/login/subdomain/${token}/`,
    }),
  );
});
