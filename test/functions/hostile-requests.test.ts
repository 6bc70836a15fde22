// The requests of issue 13 that answered 500 or left the API's envelope, each reproduced as it was
// sent: every one now answers upstream's 4xx and changes nothing.
import { join } from 'node:path';
import { handler as deleteDraft } from '../../functions/drafts/delete';
import { handler as createInvite } from '../../functions/invites/create-multiuse';
import { handler as createLinkifier } from '../../functions/linkifiers/create';
import { handler as updateLinkifier } from '../../functions/linkifiers/update';
import { handler as userPresence } from '../../functions/presence/get-user';
import { handler as createReminder } from '../../functions/reminders/create';
import * as invitesStore from '../../lib/store/invites';
import * as linkifiersStore from '../../lib/store/linkifiers';
import * as scheduledStore from '../../lib/store/scheduled-messages';
import { call, expectError, type CallOptions, type Handler } from '../helpers/api';

type Route = { method: string; path: string; handler: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { loadRoutes } = require('../../functions/routes.js') as { loadRoutes: () => Route[] };

/** Calls a route with path parameters, filling the path from its template. */
const callRoute = (
  handler: Handler,
  method: string,
  template: string,
  pathParameters: Record<string, string>,
  opts: Partial<CallOptions>,
) =>
  call(handler, {
    method,
    path: template.replace(/\{([a-z_]+)\}/g, (_m, name: string) => pathParameters[name]),
    routeKey: `${method} ${template}`,
    pathParameters,
    ...opts,
  });

const storedLinkifiers = async () => (await linkifiersStore.readLinkifierList(2, { consistent: true })).linkifiers;

// Item 2 (text too long for a DynamoDB key) is test/functions/oversized-keys.test.ts, which walks every route.

describe('integers beyond 2^53 (item 3)', () => {
  it('answers POST /reminders with scheduled_delivery_timestamp=9007199254740993 "…is too large"', async () => {
    const before = await scheduledStore.listScheduledMessagesOfUser(11);
    const result = await call(createReminder, {
      method: 'POST',
      path: '/reminders',
      as: 'iago@zulip.com',
      params: { message_id: 1, scheduled_delivery_timestamp: '9007199254740993' },
    });
    expectError(result, 'scheduled_delivery_timestamp is too large');
    expect(await scheduledStore.listScheduledMessagesOfUser(11)).toEqual(before);
  });

  it('answers a scheduled_delivery_timestamp after the year 9999 "…is too large", as upstream cannot convert it', async () => {
    const result = await call(createReminder, {
      method: 'POST',
      path: '/reminders',
      as: 'iago@zulip.com',
      params: { message_id: 1, scheduled_delivery_timestamp: 253402300800 },
    });
    expectError(result, 'scheduled_delivery_timestamp is too large');
  });

  it('answers POST /reminders with message_id=-9007199254740993 "…is too small"', async () => {
    const result = await call(createReminder, {
      method: 'POST',
      path: '/reminders',
      as: 'iago@zulip.com',
      params: { message_id: '-9007199254740993', scheduled_delivery_timestamp: 4102444800 },
    });
    expectError(result, 'message_id is too small');
  });

  it('answers POST /invites/multiuse with invite_expires_in_minutes=9007199254740993 "…is too large"', async () => {
    const before = await invitesStore.listInvitesOfRealm(2);
    const result = await call(createInvite, {
      method: 'POST',
      path: '/invites/multiuse',
      as: 'iago@zulip.com',
      params: { invite_expires_in_minutes: '9007199254740993' },
    });
    expectError(result, 'invite_expires_in_minutes is too large');
    expect(await invitesStore.listInvitesOfRealm(2)).toEqual(before);
  });

  it('answers an invite_expires_in_minutes beyond what upstream can add to a date "…is too large"', async () => {
    const result = await call(createInvite, {
      method: 'POST',
      path: '/invites/multiuse',
      as: 'iago@zulip.com',
      params: { invite_expires_in_minutes: 999999999 * 1440 + 1 },
    });
    expectError(result, 'invite_expires_in_minutes is too large');
  });

  it('answers a path id beyond 2^53 as a path that does not exist', async () => {
    const id = '9007199254740993';
    const result = await callRoute(deleteDraft, 'DELETE', '/drafts/{draft_id}', { draft_id: id }, { as: 'hamlet@zulip.com' });
    expectError(result, 'Not Found', 404);
  });
});

describe('patterns the compiler refuses (item 4)', () => {
  const huge = 'a'.repeat(100 * 1024);
  const message = 'Bad regular expression: pattern too large - compile failed';

  it('answers POST /realm/filters with a 100 KB pattern "Bad regular expression: …"', async () => {
    const before = await storedLinkifiers();
    const result = await call(createLinkifier, {
      method: 'POST',
      path: '/realm/filters',
      as: 'iago@zulip.com',
      params: { pattern: huge, url_template: 'https://example.com' },
    });
    expectError(result, message);
    expect(result.body.errors).toEqual({ __all__: [message] });
    expect(await storedLinkifiers()).toEqual(before);
  });

  it('answers PATCH /realm/filters/{id} with a 100 KB pattern "Bad regular expression: …"', async () => {
    const before = await storedLinkifiers();
    const result = await callRoute(
      updateLinkifier,
      'PATCH',
      '/realm/filters/{filter_id}',
      { filter_id: '1' },
      {
        as: 'iago@zulip.com',
        params: { pattern: huge, url_template: 'https://example.com' },
      },
    );
    expectError(result, message);
    expect(await storedLinkifiers()).toEqual(before);
  });

  it('answers a pattern nested beyond the compiler\'s depth "Bad regular expression: expression nests too deeply"', async () => {
    const nested = `${'('.repeat(30000)}a${')'.repeat(30000)}`;
    const result = await call(createLinkifier, {
      method: 'POST',
      path: '/realm/filters',
      as: 'iago@zulip.com',
      params: { pattern: nested, url_template: 'https://example.com' },
    });
    expectError(result, 'Bad regular expression: expression nests too deeply');
  });
});

describe('requests the local HTTP layer used to answer in its own shape (item 6)', () => {
  // The web pages answer with pages, not the envelope (their errors: test/functions/web).
  const writeRoutes = loadRoutes().filter((r) => r.method !== 'GET' && !r.handler.startsWith('functions/web/'));
  // Guards the table below against an empty route list.
  expect(writeRoutes.length).toBeGreaterThan(10);

  it.each(writeRoutes.map((r): [string, Route] => [`${r.method} ${r.path}`, r]))(
    'answers %s with multipart/form-data without a boundary with the error envelope',
    async (_label: string, route: Route) => {
      const [modulePath, exportName] = route.handler.split(/\.(?=[^.]+$)/);
      const handler = (await import(join(__dirname, '..', '..', modulePath)))[exportName] as Handler;
      const pathParameters = Object.fromEntries([...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => [m[1], '1']));
      const result = await callRoute(handler, route.method, route.path, pathParameters, {
        as: 'iago@zulip.com',
        rawBody: { body: 'pattern=x', contentType: 'multipart/form-data' },
      });
      expectError(result, 'Malformed request body');
    },
  );

  it('answers a path segment that is not valid UTF-8 (%ED%A0%80) as a name that matches nothing', async () => {
    const result = await callRoute(
      userPresence,
      'GET',
      '/users/{user_id_or_email}/presence',
      { user_id_or_email: '%ED%A0%80' },
      { as: 'hamlet@zulip.com' },
    );
    expectError(result, 'No such user');
  });

  it('answers a numeric path segment that is not valid UTF-8 as a path that does not exist', async () => {
    const result = await callRoute(deleteDraft, 'DELETE', '/drafts/{draft_id}', { draft_id: '%ED%A0%80' }, { as: 'hamlet@zulip.com' });
    expectError(result, 'Not Found', 404);
  });
});
