// Test processes run their background jobs themselves (no job function is configured for them):
// every job, as lib/actions/jobs.ts lists it, each loaded when it first runs (a file that starts no
// job never loads their code). A file may put its own runner in for one (defineJob). Likewise a
// /json/ POST that tunnels another method (lib/http/method-override.ts) reaches that route's
// handler in this process, loaded by its name from functions/*/routes.json when first needed.
import { join } from 'node:path';
import { JOBS } from '../../lib/actions/jobs';
import { runRoutesInProcess } from '../../lib/http/method-override';
import { runJobsInProcess } from '../../lib/store/jobs';

runJobsInProcess(JOBS);

runRoutesInProcess((routeName) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadRoutes } = require('../../functions/routes.js') as { loadRoutes: () => { name: string; handler: string }[] };
  const route = loadRoutes().find((r) => r.name === routeName);
  if (!route) throw new Error(`no route named ${routeName}`);
  const [modulePath, exportName] = route.handler.split(/\.(?=[^.]+$)/) as [string, string];
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(__dirname, '..', '..', modulePath))[exportName];
});
