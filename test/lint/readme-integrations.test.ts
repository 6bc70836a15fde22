// The README lists every incoming-webhook integration the server runs, by its URL name, as
// upstream's integrations page does (and none it does not run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INTEGRATIONS } from '../../lib/integrations';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Incoming webhooks'), readme.indexOf('\n## ', readme.indexOf('## Incoming webhooks') + 1));
const listed = [...section.matchAll(/^\| [^|]+ \| `([a-z_]+)` \|/gm)].map((m) => m[1]).sort();

it('lists in the README exactly the integrations the server runs', () => {
  expect(listed).toEqual(INTEGRATIONS.map((i) => i.name).sort());
});
