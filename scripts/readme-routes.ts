// `npm run docs:routes`: writes docs/endpoints.md, the table of every route of
// functions/*/routes.json, with each endpoint's summary from the upstream OpenAPI description and
// its authentication read from the wrapper its handler uses, and lib/http/route-functions.json,
// the name of each API route's function by method and path (a /json/ POST that tunnels another
// method goes to it: lib/http/method-override.ts). Both files are generated here, so edit the text
// below, not the files; test/scripts/readme-routes.test.ts fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';

const ROOT = resolve(__dirname, '..');
export const ENDPOINTS_DOC = resolve(ROOT, 'docs/endpoints.md');
export const ROUTE_FUNCTIONS = resolve(ROOT, 'lib/http/route-functions.json');
const OPENAPI = resolve(ROOT, 'test/data/zulip-openapi.yaml');

type Route = { name: string; method: string; path: string; handler: string; root?: true };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { loadRoutes } = require('../functions/routes.js') as { loadRoutes: () => Route[] };

/**
 * What the routes the description does not list do: those outside /api/v1 (upstream documents
 * them only as URLs in messages) and the few API endpoints upstream leaves undocumented.
 */
const OWN_SUMMARIES: Record<string, string> = {
  serveUploadedFile: 'An uploaded file itself (for who may read it)',
  serveUploadedFileByToken: 'An uploaded file by a temporary URL, without authentication',
  getAvatar: "A redirect to a user's avatar (uploaded, or the Gravatar)",
  getAvatarMedium: "A redirect to a user's medium-size avatar",
  serveUserAvatar: "An uploaded avatar image, or the organization's uploaded icon or logo, without authentication",
  serveRealmEmojiImage: 'A custom emoji image, without authentication',
  downloadRealmExport: "An organization export's archive (its export_url): a redirect to a short-lived S3 URL, for administrators",
  uploadAvatar: 'Upload your avatar',
  deleteAvatar: 'Remove your avatar (back to the Gravatar)',
  uploadRealmIcon: "Upload the organization's icon",
  deleteRealmIcon: "Remove the organization's icon (back to the Gravatar)",
  uploadRealmLogo: "Upload the organization's logo (or, with night, its dark-theme logo)",
  deleteRealmLogo: "Remove the organization's logo (or night logo; back to the default)",
  webLoginPage: 'Web page: the login form',
  webLogin: 'Web page: sign in with email and password (starts a session)',
  webLogout: 'Web page: sign out (ends the session)',
  signOutOtherSessions: "The web app's: ends every web session of yours but the one asking (ours; /json/ only)",
  webAccountPage: 'Web page: your account, and the form that shows your API key',
  webApiKey: 'Web page: your API key and zuliprc, after you re-enter your password',
  webPasswordResetPage: 'Web page: the form that asks where to send a password reset link',
  webPasswordReset: 'Web page: sends a password reset link by email (the same answer for any address)',
  webPasswordResetConfirm: 'Web page: sets a new password from a password reset link',
  webPasswordResetConfirmPage: 'Web page: the new-password form of a password reset link',
  webSubdomainLogin:
    "Web page: takes a one-time sign-in handed over by the new-organization page and starts the session at the organization's host",
  webSignUpPage: 'Web page: the sign-up form of an organization open to sign-ups (or that it requires an invitation)',
  webSignUp: 'Web page: emails a sign-up confirmation link (/join/<key>/) to an admitted address',
  devEmails: 'The emails sent through the local SES store (development mode only)',
  webDevLoginPage: "Web page: the organization's accounts by role, each a button that signs in as it (development mode only)",
  webDevLogin: 'Web page: signs in as the account of `direct_email`, without a password (development mode only)',
  webJoinPage: 'Web page: the sign-up form of an invitation (an email invitation or a reusable link)',
  webJoin: 'Web page: creates the account of an invitation and signs it in',
  webNewRealmPage: 'Web page: the new-organization form of a realm creation link (npm run create-realm-link)',
  webNewRealm: "Web page: creates the organization with its owner and signs the owner in at the organization's URL",
  serveThumbnail: 'A redirect to the image an inline image preview shows (nothing is resized)',
  getServerEmojiData: "The emoji data file (register's server_emoji_data_url)",
  // Upstream documents these under other path names ({user_id}, {email}) or not at all.
  getUser: 'Get a user (by ID or email)',
  updateUser: 'Update a user',
  deactivateUser: 'Deactivate a user',
  reactivateUser: 'Reactivate a user',
  getBots: "Get the caller's own active bots",
  createBot: 'Create a bot',
  updateBot: 'Update a bot',
  deactivateBot: 'Deactivate a bot',
  deactivateRealm: 'Deactivate the organization',
  updateProfileField: 'Update a custom profile field',
  deleteProfileField: 'Delete a custom profile field',
  addSubmessage: "Add a submessage (a poll vote, a checked task) to a message's widget",
  webHome: "The organization's address: the web app when signed in, else a redirect to the login page",
  webStatic: "The web app's built files (content-hashed: kept a year), without authentication",
};

const authOf = (route: Route): string => {
  const source = readFileSync(resolve(ROOT, `${route.handler.replace(/\.[^.]+$/, '')}.ts`), 'utf8');
  if (/\bpublicApiHandler\(/.test(source)) return 'none';
  if (/\boptionalAuthApiHandler\(/.test(source)) return 'optional';
  // A web page: the session cookie when signed in, and a CSRF token on every POST (lib/web).
  if (/\bpageHandler\(/.test(source)) return 'session cookie';
  // A page of the site itself (the new-organization page): no organization, no session.
  if (/\brootPageHandler\(/.test(source)) return 'none';
  // The web app's files: the same bytes for everyone.
  if (/\bwebappAsset\(/.test(source)) return 'none';
  return 'required';
};

/** The Markdown table of every route, in the route table's order. */
export const renderRoutesTable = (): string => {
  const description = load(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, { summary?: string }>> };
  const rows = loadRoutes().map((r) => {
    // Routes at the site root (uploaded files) are not API endpoints the description lists.
    const listed = r.root ? undefined : description.paths[r.path.replace(/\{([a-z_]+)\+\}/g, '{$1}')]?.[r.method.toLowerCase()]?.summary;
    const summary = listed ?? OWN_SUMMARIES[r.name] ?? '';
    return `| ${r.method} | \`${r.root ? '' : '/api/v1'}${r.path}\` | ${summary} | ${authOf(r)} | \`${r.handler.replace(/\.handler$/, '.ts')}\` |`;
  });
  return ['| Method | Path | What it does | Authentication | Handler |', '|---|---|---|---|---|', ...rows].join('\n');
};

/** The whole of docs/endpoints.md. */
export const renderEndpointsDoc = (): string =>
  `<!-- Generated by \`npm run docs:routes\` (scripts/readme-routes.ts) from functions/*/routes.json: do not edit. -->

# Endpoints

Every route the service serves, one Lambda function each (\`functions/<domain>/routes.json\`
declares them). The summaries are upstream's, from its OpenAPI description
(\`test/data/zulip-openapi.yaml\`), where it lists the endpoint.

- **Authentication** \`required\`: HTTP Basic with \`<email>:<api_key>\`, as for Zulip; \`optional\`:
  served without credentials too (as the host's organization); \`none\`: credentials are not read;
  \`session cookie\`: a web page, which uses the \`sessionid\` cookie when signed in and asks a CSRF
  token of every POST.
- Parameters are read from a form-encoded or multipart body and from the query string, for every
  method. Every GET route also answers HEAD.
- Every \`/api/v1/…\` route is also served at \`/json/…\`, the web app's, authenticated by the
  \`sessionid\` cookie and, on a method other than GET, the \`X-CSRFToken\` header (one proxy route,
  \`ANY /json/{proxy+}\`: docs/architecture.md, "The web app").
- A known path under \`/api/v1\` with a method it does not serve answers 405 with
  \`allowed_methods\`; an unknown path under \`/api/v1\` a JSON 404 (\`functions/fallback/unmatched.ts\`).
  Any other unknown path answers 404 (\`functions/fallback/not-found.ts\`): the JSON envelope under
  \`/api/\` and \`/json/\`, the web pages' HTML 404 page anywhere else.
- \`POST /api/v1/dev_fetch_api_key\`, \`GET /emails/\`, \`GET /devlogin/\` and
  \`POST /accounts/login/local/\` serve only in development mode (\`DEVELOPMENT_MODE=on\`, which
  \`npm start\` and the tests set); otherwise the first answers 400 \`Endpoint not available in
  production.\` and the others 404.

${renderRoutesTable()}
`;

/** lib/http/route-functions.json: `{"PATCH /messages/{message_id}": "updateMessage", …}` for the routes under /api/v1. */
export const renderRouteFunctions = (): string =>
  `${JSON.stringify(
    Object.fromEntries(
      loadRoutes()
        .filter((r) => !r.root)
        .map((r) => [`${r.method} ${r.path}`, r.name]),
    ),
    null,
    2,
  )}\n`;

if (require.main === module) {
  for (const [file, next, name] of [
    [ENDPOINTS_DOC, renderEndpointsDoc(), 'docs/endpoints.md'],
    [ROUTE_FUNCTIONS, renderRouteFunctions(), 'lib/http/route-functions.json'],
  ]) {
    const current = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    })();
    writeFileSync(file, next);
    console.log(next === current ? `${name} is up to date` : `${name} rewritten`);
  }
}
