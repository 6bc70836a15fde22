// ANY /api/v1/{proxy+}: what API Gateway sends here is either a known path with a method it does
// not serve (405 with the allowed methods, before authentication) or an unknown path (JSON 404).
import { handler as unmatched } from '../../../functions/fallback/unmatched';
import { allowedMethods, deployedRouteTable, type RouteTable } from '../../../lib/http/route-table';
import { buildEvent, call, expectError } from '../../helpers/api';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { routeTable } = require('../../../functions/routes.js') as { routeTable: () => RouteTable };

const TABLE: RouteTable = {
  '/drafts': ['GET', 'POST'],
  '/drafts/{draft_id}': ['PATCH', 'DELETE'],
  '/users/me/presence': ['POST'],
  '/users/{user_id_or_email}/presence': ['GET'],
  '/dev_fetch_api_key': ['POST'],
};

const send = (method: string, path: string, extra: Parameters<typeof call>[1] = {}) =>
  call(unmatched, { method, path, routeKey: 'ANY /api/v1/{proxy+}', ...extra });

describe('ANY /api/v1/{proxy+}', () => {
  it('answers 405 with the allowed methods for a known path and another method', async () => {
    const result = await send('GET', '/dev_fetch_api_key');
    expect(result.status).toBe(405);
    expect(result.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['POST'] });
  });

  it('lists HEAD after GET, as upstream serves HEAD wherever it serves GET', async () => {
    expect((await send('PUT', '/drafts')).body.allowed_methods).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('matches path parameters', async () => {
    expect((await send('GET', '/drafts/12')).body.allowed_methods).toEqual(['PATCH', 'DELETE']);
  });

  it('merges the methods of every template that matches', async () => {
    expect((await send('DELETE', '/users/me/presence')).body.allowed_methods).toEqual(['POST', 'GET', 'HEAD']);
  });

  it('answers 405 before authentication, whatever the credentials', async () => {
    const result = await send('GET', '/dev_fetch_api_key', { authorization: 'Basic garbage' });
    expect(result.status).toBe(405);
  });

  it.each(['/no_such_endpoint', '/drafts/12/extra', '/drafts/', '/Drafts'])('answers a JSON 404 for the unknown path %s', async (path) => {
    const result = await send('GET', path);
    expectError(result, 'Not Found', 404, 'BAD_REQUEST');
    expect(result.headers['Content-Type']).toBe('application/json');
  });

  it('answers OPTIONS on a known path with 204 and the sorted allowed methods', async () => {
    const response = await unmatched(await buildEvent({ method: 'OPTIONS', path: '/drafts', routeKey: 'ANY /api/v1/{proxy+}' }));
    expect(response).toEqual({ statusCode: 204, headers: { Allow: 'GET, HEAD, POST' }, body: '' });
  });

  it('knows the routes of every functions/*/routes.json, from the generated route-functions.json', () => {
    expect(deployedRouteTable()).toEqual(routeTable());
    // The paths the cases above use, as this table has them.
    for (const [path, methods] of Object.entries(TABLE)) expect(deployedRouteTable()[path]).toEqual(methods);
  });
});

describe('allowedMethods', () => {
  it('knows nothing outside /api/v1', () => {
    expect(allowedMethods(TABLE, '/drafts')).toBeUndefined();
    expect(allowedMethods(TABLE, '/api/v2/drafts')).toBeUndefined();
  });

  it('does not let a parameter match an empty segment', () => {
    expect(allowedMethods(TABLE, '/api/v1/users//presence')).toBeUndefined();
  });
});
