// `npm run bench`: starts its own DynamoDB Local, seeds the development data set, and prints the
// figures of every benchmark section. Nothing else needs to be running.
import { closeClients } from '../lib/store/client';
import { benchAdmin } from './bench-admin';
import { benchBounded } from './bench-bounded';
import { benchBundles } from './bench-bundles';
import { benchCapacity } from './bench-capacity';
import { benchConnected } from './bench-connected';
import { benchDigests } from './bench-digests';
import { benchEmails } from './bench-emails';
import { benchEvents } from './bench-events';
import { benchExport } from './bench-export';
import { benchGap } from './bench-gap';
import { benchImport } from './bench-import';
import { benchIntegrations } from './bench-integrations';
import { benchMessages } from './bench-messages';
import { benchMessagesFetch } from './bench-messages-fetch';
import { benchPresence } from './bench-presence';
import { benchPush } from './bench-push';
import { benchRegister } from './bench-register';
import { benchRender } from './bench-render';
import { benchSearch } from './bench-search';
import { benchSearchLag } from './bench-search-lag';
import { benchTopics } from './bench-topics';
import { benchWeb } from './bench-web';
import { benchSubscriptions } from './bench-subscriptions';
import { createTables, startDynamoLocal } from './local-dynamo';
import { seedDevRealm } from './seed';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess } from '../lib/store/jobs';

/** Every section of `npm run bench`, in the order they run; `npm run bench <name>...` runs some. */
export const SECTIONS: Record<string, () => Promise<void>> = {
  events: benchEvents,
  gap: benchGap,
  messages: benchMessages,
  'messages-fetch': benchMessagesFetch,
  presence: () => benchPresence(),
  register: benchRegister,
  capacity: benchCapacity,
  connected: benchConnected,
  bundles: benchBundles,
  topics: benchTopics,
  subscriptions: benchSubscriptions,
  bounded: benchBounded,
  render: benchRender,
  admin: benchAdmin,
  push: benchPush,
  web: benchWeb,
  'search-lag': benchSearchLag,
  search: benchSearch,
  export: benchExport,
  import: benchImport,
  integrations: benchIntegrations,
  digests: benchDigests,
  emails: benchEmails,
};

/** The sections named on the command line (all when none); an unknown name fails the run. */
export const selectSections = (names: string[]): [string, () => Promise<void>][] => {
  const unknown = names.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0)
    throw new Error(`unknown benchmark section ${unknown.join(', ')} (sections: ${Object.keys(SECTIONS).join(', ')})`);
  return Object.entries(SECTIONS).filter(([name]) => names.length === 0 || names.includes(name));
};

/**
 * The command line: section names, and `--extra-users N` (or EXTRA_USERS), generated members added
 * to the development organization before the sections run (scale work: 10,000).
 */
export const parseBenchArgs = (args: string[], envExtra: string | undefined): { names: string[]; extraUsers: number } => {
  const names: string[] = [];
  let extraUsers = Number(envExtra ?? 0);
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--extra-users') extraUsers = Number(args[++i]);
    else names.push(args[i]);
  }
  if (!Number.isInteger(extraUsers) || extraUsers < 0) throw new Error('--extra-users takes a whole number');
  return { names, extraUsers };
};

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  process.env.REQUEST_LOG = 'off';
  // Its own DynamoDB Local with the development data set, whose passwords use the development secret.
  process.env.DEVELOPMENT_MODE = 'on';
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  const { names, extraUsers } = parseBenchArgs(process.argv.slice(2), process.env.EXTRA_USERS);
  const sections = selectSections(names);
  const dynamo = await startDynamoLocal();
  try {
    process.env.TABLE_PREFIX = 'bench-';
    await createTables();
    await seedDevRealm({ extraUsers, log: (line) => console.log(line) });
    console.log(`# Benchmark (DynamoDB Local at ${dynamo.endpoint}, Node ${process.version})`);
    for (const [, run] of sections) await run();
  } finally {
    closeClients();
    await dynamo.stop();
  }
};

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
