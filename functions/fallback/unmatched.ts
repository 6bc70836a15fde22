// ANY /api/v1/{proxy+}: every request no route serves. A known path with a wrong method is a 405
// with the allowed methods (before any authentication, as upstream), OPTIONS on a known path a 204
// with an Allow header, and anything else a JSON 404.
import { MethodNotAllowedError, PathNotFoundError } from '../../lib/errors';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { allowedMethods, deployedRouteTable } from '../../lib/http/route-table';

export const handler = publicApiHandler(async ({ event }) => {
  const allowed = allowedMethods(deployedRouteTable(), event.rawPath);
  if (allowed === undefined) throw new PathNotFoundError();
  if (event.requestContext.http.method === 'OPTIONS') {
    return new RawResponse({ statusCode: 204, headers: { Allow: [...allowed].sort().join(', ') }, body: '' });
  }
  throw new MethodNotAllowedError(allowed);
});
