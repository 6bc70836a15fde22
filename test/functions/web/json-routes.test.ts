// The web app's /json/ routes: every /api/v1/ route, authenticated by the browser's session
// instead of an API key, as upstream's rest_dispatch does (zerver/lib/rest.py): the session cookie
// at the host's organization, and on a request that may change something the CSRF token in the
// X-CSRFToken header against the csrftoken cookie. Without a session: 401 with the Session
// challenge; a missing or wrong token: 403 CSRF_FAILED, and nothing changes.
import { handler as getOwnUser } from '../../../functions/users/me';
import { handler as sendMessage } from '../../../functions/messages/send';
import { handler as register } from '../../../functions/events/register';
import { handler as getEvents } from '../../../functions/events/get';
import { advanceClock } from '../../../lib/clock';
import { SESSION_LIFETIME_SECONDS } from '../../../lib/models/session';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { PageClient, signedInBrowser } from '../../helpers/web';

const IAGO = 'iago@zulip.com';

/** A browser signed in as `email`, with the CSRF token of a page it then loaded. */
const signedIn = (email = IAGO): Promise<PageClient> => signedInBrowser(email);

const sendAs = (json: { cookies: Record<string, string>; csrfToken?: string }, content: string) =>
  call(sendMessage, { method: 'POST', path: '/messages', json, params: { type: 'stream', to: 'Verona', topic: 'json', content } });

const topicMessages = async (): Promise<string[]> => {
  const browser = await signedIn();
  const result = await call(
    // GET needs no CSRF token.
    (await import('../../../functions/messages/list')).handler,
    {
      path: '/messages',
      json: { cookies: browser.jsonSession().cookies },
      params: { anchor: 'newest', num_before: 20, num_after: 0, narrow: [{ operator: 'topic', operand: 'json' }] },
    },
  );
  return (expectSuccess(result).messages as { content: string }[]).map((m) => m.content);
};

describe('/json/: the web app calls the API with its session', () => {
  it('serves a GET with the session cookie alone', async () => {
    const browser = await signedIn();
    const body = expectSuccess(await call(getOwnUser, { path: '/users/me', json: { cookies: browser.jsonSession().cookies } }));
    expect(body.email).toBe(IAGO);
  });

  it('serves a POST with the CSRF token in X-CSRFToken', async () => {
    const browser = await signedIn();
    expectSuccess(await sendAs(browser.jsonSession(), 'sent from the web app'));
    expect(await topicMessages()).toContain('<p>sent from the web app</p>');
  });

  it('answers 401 with the Session challenge without a session, or with an expired one', async () => {
    const none = await call(getOwnUser, { path: '/users/me', json: { cookies: {} } });
    expectError(none, 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
    expect(none.headers['WWW-Authenticate']).toBe('Session realm="zulip"');

    const browser = await signedIn();
    advanceClock((SESSION_LIFETIME_SECONDS + 1) * 1000);
    const expired = await call(getOwnUser, { path: '/users/me', json: { cookies: browser.jsonSession().cookies } });
    expectError(expired, 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
  });

  it('refuses a POST without the token, with a wrong one, or without the CSRF cookie (403 CSRF_FAILED), and sends nothing', async () => {
    const browser = await signedIn();
    const { cookies, csrfToken } = browser.jsonSession();
    expectError(await sendAs({ cookies }, 'no token'), 'CSRF error: CSRF token missing.', 403, 'CSRF_FAILED');
    expectError(
      await sendAs({ cookies, csrfToken: `${csrfToken}x` }, 'wrong token'),
      "CSRF error: CSRF token from the 'X-Csrftoken' HTTP header incorrect.",
      403,
      'CSRF_FAILED',
    );
    const { csrftoken: _dropped, ...withoutCsrfCookie } = cookies;
    expectError(
      await sendAs({ cookies: withoutCsrfCookie, csrfToken }, 'no cookie'),
      'CSRF error: CSRF cookie not set.',
      403,
      'CSRF_FAILED',
    );
    // A token of another session is not this one's.
    const other = (await signedIn('hamlet@zulip.com')).jsonSession();
    expectError(
      await sendAs({ cookies: { ...cookies, csrftoken: other.csrfToken! }, csrfToken: other.csrfToken }, 'their token'),
      "CSRF error: CSRF token from the 'X-Csrftoken' HTTP header incorrect.",
      403,
      'CSRF_FAILED',
    );
    const contents = await topicMessages();
    for (const content of ['no token', 'wrong token', 'no cookie', 'their token']) expect(contents).not.toContain(`<p>${content}</p>`);
  });

  it('checks the session before the token, as upstream: no session and no token is a 401', async () => {
    expectError(await sendAs({ cookies: {} }, 'nobody'), 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
  });

  it('leaves /api/v1/ as it was: a session cookie there authenticates nothing', async () => {
    const browser = await signedIn();
    const result = await call(getOwnUser, { path: '/users/me', headers: { cookie: `sessionid=${browser.cookies.sessionid}` } });
    expectError(result, 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
    expect(result.headers['WWW-Authenticate']).toBe('Basic realm="zulip"');
  });

  it('registers a queue and polls it with the session: the poll sees what the user sends', async () => {
    const browser = await signedIn();
    const json = browser.jsonSession();
    const queue = expectSuccess(
      await call(register, { method: 'POST', path: '/register', json, params: { event_types: ['message'], apply_markdown: true } }),
    );
    expectSuccess(await sendAs(json, 'seen by the poll'));
    const polled = expectSuccess(
      await call(getEvents, {
        path: '/events',
        json: { cookies: json.cookies },
        params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true },
      }),
    );
    expect(polled.events.map((e: { message?: { content: string } }) => e.message?.content)).toContain('<p>seen by the poll</p>');
    // Another browser's session may not poll it; no session is a 401.
    const other = (await signedIn('hamlet@zulip.com')).jsonSession();
    const theirs = await call(getEvents, {
      path: '/events',
      json: { cookies: other.cookies },
      params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true },
    });
    expect(theirs.status).toBe(400);
    expect(theirs.body.code).toBe('BAD_EVENT_QUEUE_ID');
    expectError(
      await call(getEvents, { path: '/events', json: { cookies: {} }, params: { queue_id: queue.queue_id, last_event_id: -1 } }),
      'Not logged in: API authentication or user session required',
      401,
      'UNAUTHORIZED',
    );
  });
});

describe("/json/: a POST that tunnels another method (upstream's method=PATCH)", () => {
  it('is served as that method, by its route, whether the path has a POST route or not', async () => {
    const browser = await signedIn();
    const json = browser.jsonSession();
    // POST /messages/{id} is no route: API Gateway gives it to the fallback, which hands it on.
    const sent = expectSuccess(await sendAs(json, 'before the edit'));
    const { handler: fallback } = await import('../../../functions/fallback/unmatched');
    expectSuccess(
      await call(fallback, {
        method: 'POST',
        path: `/messages/${sent.id}`,
        routeKey: 'ANY /api/v1/{proxy+}',
        json,
        params: { method: 'PATCH', content: 'after the edit' },
      }),
    );
    expect(await topicMessages()).toContain('<p>after the edit</p>');
    // POST /users/me/subscriptions is subscribing; with method=DELETE it is unsubscribing.
    const { handler: subscribe } = await import('../../../functions/channels/subscribe');
    const left = expectSuccess(
      await call(subscribe, {
        method: 'POST',
        path: '/users/me/subscriptions',
        json,
        params: { method: 'delete', subscriptions: ['Verona'] },
      }),
    );
    expect(left).toMatchObject({ removed: ['Verona'], not_removed: [] });
  });

  it("answers 405 with the path's methods for a method no route serves there, and still wants the CSRF token", async () => {
    const browser = await signedIn();
    const json = browser.jsonSession();
    const { handler: subscribe } = await import('../../../functions/channels/subscribe');
    const wrong = await call(subscribe, {
      method: 'POST',
      path: '/users/me/subscriptions',
      json,
      params: { method: 'PUT', subscriptions: ['Verona'] },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toMatchObject({
      result: 'error',
      msg: 'Method Not Allowed',
      allowed_methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    });
    const { cookies } = json;
    expectError(
      await call(subscribe, {
        method: 'POST',
        path: '/users/me/subscriptions',
        json: { cookies },
        params: { method: 'DELETE', subscriptions: ['Verona'] },
      }),
      'CSRF error: CSRF token missing.',
      403,
      'CSRF_FAILED',
    );
  });
});
