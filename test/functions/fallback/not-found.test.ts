// ANY /{proxy+}: a path outside /api/v1/ that no route serves. Under the API's prefixes the API's
// JSON 404, anywhere else the pages' HTML 404 page: what a browser asking for /favicon.ico gets.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as notFound } from '../../../functions/fallback/not-found';
import { buildEvent } from '../../helpers/api';
import { markupOf, pageText } from '../../helpers/web';

const send = async (method: string, rawPath: string) => {
  const event: APIGatewayProxyEventV2 = { ...(await buildEvent({ method, routeKey: 'ANY /{proxy+}' })), rawPath };
  return notFound(event, {} as never);
};

describe('ANY /{proxy+}', () => {
  it.each([
    ['GET', '/favicon.ico'],
    ['GET', '/nope'],
    ['GET', '/nope/deeper/'],
    ['POST', '/nope'],
    ['DELETE', '/login/extra'],
  ])('answers %s %s with the 404 page in the layout of every page, never cached', async (method, path) => {
    const response = await send(method, path);
    expect(response.statusCode).toBe(404);
    expect(response.headers).toMatchObject({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    expect(markupOf(response.body)).toContain('<title>Page not found | Zulip</title>');
    expect(pageText(response.body)).toContain('Page not found There is no page at this address.');
    expect(response.cookies).toBeUndefined();
  });

  it.each([['/api/v1'], ['/api/v2/users'], ['/api/'], ['/json/messages'], ['/json']])(
    "answers an API path (%s) with the API's JSON 404",
    async (path) => {
      const response = await send('GET', path);
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    },
  );
});
