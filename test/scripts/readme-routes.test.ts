// The README's endpoint table is generated from functions/*/routes.json; it must list every route.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readmeWithRoutes, renderRoutesTable } from '../../scripts/readme-routes';

describe('README.md endpoints', () => {
  it('lists every route of functions/*/routes.json (run `npm run docs:routes` after adding one)', () => {
    const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
    expect(readme).toBe(readmeWithRoutes(readme));
  });

  it('names the summary, authentication and handler of POST /dev_fetch_api_key', () => {
    expect(renderRoutesTable()).toContain(
      '| POST | `/api/v1/dev_fetch_api_key` | Fetch an API key (development only) | none | `functions/dev/fetch-api-key.ts` |',
    );
  });
});
