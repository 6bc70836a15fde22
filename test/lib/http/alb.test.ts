// The long-poll behind the cloudfront edge's load balancer (edge/index.js): GET and DELETE
// /events, and the fallback for their paths' other methods, served from an Application Load
// Balancer's event (lib/http/alb.ts) exactly as from API Gateway's, answered in the load
// balancer's shape, and an events batch cut below its 1 MB answer limit. Also the viewer's host
// that CloudFront passes on in X-Forwarded-Host.
import { gunzipSync } from 'node:zlib';
import { handler as register } from '../../../functions/events/register';
import { handler as getEvents } from '../../../functions/events/get';
import { handler as deleteQueue } from '../../../functions/events/delete';
import { handler as fallback } from '../../../functions/fallback/unmatched';
import { handler as serverSettings } from '../../../functions/auth/server-settings';
import { handler as sendMessage } from '../../../functions/messages/send';
import { ALB_BATCH_BYTES, prefixWithin, type AlbEvent } from '../../../lib/http/alb';
import { devPassword } from '../../../lib/passwords';
import { authFor, call, expectSuccess } from '../../helpers/api';
import { PageClient } from '../../helpers/web';

const IAGO = 'iago@zulip.com';

/** A request as the load balancer hands it to its Lambda target (single-value headers and query, values as sent). */
const albEvent = (method: string, path: string, query: Record<string, string>, headers: Record<string, string>): AlbEvent => ({
  requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/events/0' } },
  httpMethod: method,
  path,
  queryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, encodeURIComponent(v)])),
  headers: { host: 'localhost:3000', 'x-amzn-trace-id': 'Root=1-test', ...headers },
  body: '',
  isBase64Encoded: false,
});

const bodyOf = (response: { body: string; isBase64Encoded: boolean }) =>
  JSON.parse(response.isBase64Encoded ? gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8') : response.body);

const registerQueue = async () =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as: IAGO, params: { event_types: ['message'] } }));

const send = (content: string) =>
  call(sendMessage, { method: 'POST', path: '/messages', as: IAGO, params: { type: 'stream', to: 'Verona', topic: 'alb', content } });

describe('GET and DELETE /events behind the load balancer', () => {
  it('polls a queue with the API key and answers in the load balancer shape', async () => {
    const queue = await registerQueue();
    expectSuccess(await send('through the load balancer'));
    const response = await getEvents(
      albEvent(
        'GET',
        '/api/v1/events',
        { queue_id: queue.queue_id, last_event_id: String(queue.last_event_id), dont_block: 'true' },
        {
          authorization: await authFor(IAGO),
        },
      ),
    );
    expect(response).toMatchObject({ statusCode: 200, statusDescription: '200 OK', isBase64Encoded: false });
    expect(response).not.toHaveProperty('cookies');
    expect(response.headers['Content-Type']).toBe('application/json');
    const body = bodyOf(response);
    expect(body.result).toBe('success');
    expect(body.events.map((e: { message?: { content: string } }) => e.message?.content)).toContain('through the load balancer');
  });

  it('reads query values as the load balancer passes them, still percent-encoded', async () => {
    const queue = await registerQueue();
    // A value with a space arrives as `x%20y`; refused as behind the HTTP API.
    const response = await getEvents(
      albEvent('GET', '/api/v1/events', { queue_id: queue.queue_id, last_event_id: 'x y' }, { authorization: await authFor(IAGO) }),
    );
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response)).toMatchObject({ result: 'error', msg: 'last_event_id is not valid JSON' });
  });

  it('serves /json/events by the session, with the host the browser addressed, and DELETE ends the queue', async () => {
    const browser = new PageClient();
    await browser.logIn(IAGO, devPassword(IAGO));
    await browser.get('/accounts/');
    const json = browser.jsonSession();
    const queue = expectSuccess(await call(register, { method: 'POST', path: '/register', json, params: { event_types: ['message'] } }));
    const cookie = Object.entries(json.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    const poll = await getEvents(
      albEvent('GET', '/json/events', { queue_id: queue.queue_id, last_event_id: '-1', dont_block: 'true' }, { cookie }),
    );
    expect(poll.statusCode).toBe(200);
    // The same cookie at /api/v1/ authenticates nothing, whatever mark a client adds.
    const marked = await getEvents(
      albEvent(
        'GET',
        '/api/v1/events',
        { queue_id: queue.queue_id, last_event_id: '-1', dont_block: 'true' },
        { cookie, 'x-zulip-json-route': '1' },
      ),
    );
    expect(marked.statusCode).toBe(401);
    expect(bodyOf(marked).msg).toBe('Not logged in: API authentication or user session required');
    const deleted = await deleteQueue(
      albEvent('DELETE', '/json/events', { queue_id: queue.queue_id }, { cookie, 'x-csrftoken': json.csrfToken ?? '' }),
    );
    expect(deleted.statusCode).toBe(200);
    const gone = await getEvents(
      albEvent('GET', '/json/events', { queue_id: queue.queue_id, last_event_id: '-1', dont_block: 'true' }, { cookie }),
    );
    expect(gone.statusCode).toBe(400);
    expect(bodyOf(gone).code).toBe('BAD_EVENT_QUEUE_ID');
  });

  it('answers another method of those paths 405 with the allowed methods, as the HTTP API fallback does', async () => {
    const response = await fallback(albEvent('POST', '/api/v1/events', {}, {}));
    expect(response).toMatchObject({ statusCode: 405, statusDescription: '405 Method Not Allowed' });
    expect(bodyOf(response)).toMatchObject({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD', 'DELETE'] });
  });

  it('cuts a batch to the longest prefix under the answer limit; the rest stays for the next poll', () => {
    const event = (id: number) => ({ id, type: 'message', content: 'x'.repeat(100_000) });
    const batch = Array.from({ length: 20 }, (_, i) => event(i));
    const cut = prefixWithin(batch, ALB_BATCH_BYTES);
    expect(cut.map((e) => e.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(ALB_BATCH_BYTES);
    // A batch that fits is the same array; one event past the limit alone is still sent.
    const small = batch.slice(0, 3);
    expect(prefixWithin(small, ALB_BATCH_BYTES)).toBe(small);
    expect(prefixWithin([{ content: 'y'.repeat(2 * ALB_BATCH_BYTES) }], ALB_BATCH_BYTES)).toHaveLength(1);
  });
});

describe("the viewer's host past CloudFront (X-Forwarded-Host)", () => {
  it('names the organization a request is for, where Host is the origin own', async () => {
    const at = async (headers: Record<string, string>) =>
      expectSuccess(await call(serverSettings, { path: '/server_settings', headers })).realm_url as string;
    expect(await at({ host: 'abc123.execute-api.us-east-1.amazonaws.com', 'x-forwarded-host': 'lear.localhost:3000' })).toBe(
      await at({ host: 'lear.localhost:3000' }),
    );
    expect(await at({ host: 'lear.localhost:3000' })).not.toBe(await at({ host: 'localhost:3000' }));
  });
});
