// `tsx scripts/operator-cli.ts <command> [options]`: the npm scripts user-role, deactivate-user,
// reactivate-user, deactivate-realm, reactivate-realm, list-realms and user-can-create-users.
import { closeClients } from '../lib/store/client';
import { OperatorError } from '../lib/actions/organization/operator';
import { runOperatorCommand } from './operator';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess } from '../lib/store/jobs';

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  const [name = '', ...argv] = process.argv.slice(2);
  try {
    for (const line of await runOperatorCommand(name, argv)) console.log(line);
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  } finally {
    closeClients();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
