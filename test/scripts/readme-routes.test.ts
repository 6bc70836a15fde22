// docs/endpoints.md and lib/http/route-functions.json are generated from functions/*/routes.json by
// `npm run docs:routes`; they must be exactly what the script would write from the routes today.
import { readFileSync } from 'node:fs';
import { ENDPOINTS_DOC, renderEndpointsDoc, renderRouteFunctions, renderRoutesTable, ROUTE_FUNCTIONS } from '../../scripts/readme-routes';

describe('docs/endpoints.md', () => {
  it('is what `npm run docs:routes` generates from the routes now (run it after changing a route)', () => {
    expect(readFileSync(ENDPOINTS_DOC, 'utf8')).toBe(renderEndpointsDoc());
  });

  it('has lib/http/route-functions.json as `npm run docs:routes` generates it from the routes now', () => {
    expect(readFileSync(ROUTE_FUNCTIONS, 'utf8')).toBe(renderRouteFunctions());
  });

  it('names the summary, authentication and handler of POST /dev_fetch_api_key', () => {
    expect(renderRoutesTable()).toContain(
      '| POST | `/api/v1/dev_fetch_api_key` | Fetch an API key (development only) | none | `functions/dev/fetch-api-key.ts` |',
    );
  });

  it('has a row for every route', () => {
    const rows = renderRoutesTable().split('\n').slice(2);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadRoutes } = require('../../functions/routes.js') as { loadRoutes: () => unknown[] };
    expect(rows).toHaveLength(loadRoutes().length);
  });
});
