// ANY /{proxy+}: every path outside /api/v1/ that no route serves (a browser's /favicon.ico, a
// mistyped page). Under the API's prefixes (/api/, /json/) the API's JSON 404, as the fallback of
// /api/v1/ answers (unmatched.ts); anywhere else the pages' 404 page (lib/http/route-table.ts,
// isApiPath: one rule here, in unmatched.ts and in the local front).
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { PathNotFoundError } from '../../lib/errors';
import { publicApiHandler } from '../../lib/http/api-handler';
import { isApiPath } from '../../lib/http/route-table';
import { pageNotFound } from '../../lib/web/page-handler';

const apiNotFound = publicApiHandler(async () => {
  throw new PathNotFoundError();
});

export const handler = async (event: APIGatewayProxyEventV2, context: Context) =>
  isApiPath(event.rawPath ?? '/') ? apiNotFound(event, context) : pageNotFound();
