// Starts one DynamoDB Local (its databases on a memory file system, on a free port), one local S3 store (with the uploads
// bucket), one local SES store (emails in memory) and one search database (PGlite, in memory) for the whole run, shared by every test file of every project that needs them: handler
// test files create their own tables on it (per-file-tables.ts), end-to-end files their worker's
// (e2e.ts). Each project that needs them names this file as its globalSetup; jest runs a project's
// only when one of its tests runs, and the second project to start finds them running.
import { randomBytes } from 'node:crypto';
import { startDynamoLocal, type LocalDynamo } from '../../scripts/local-dynamo';
import { startLocalBouncer, type LocalBouncer } from '../../scripts/local-bouncer';
import { startLocalS3, type LocalS3 } from '../../scripts/local-s3';
import { startLocalSes, type LocalSes } from '../../scripts/local-ses';
import { startLocalSearch, type LocalSearch } from '../../scripts/local-search';
import { watchOwner } from '../../scripts/local-service';
import { closeClients } from '../../lib/store/client';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWebapp } from '../../webapp/build';

type Shared = {
  dynamo?: LocalDynamo;
  s3?: LocalS3;
  ses?: LocalSes;
  bouncer?: LocalBouncer;
  search?: LocalSearch;
  starting?: Promise<void>;
};
/** jest loads each project's globalSetup module on its own: the state lives on globalThis. */
export const shared = (): Shared => ((globalThis as { __chatTests?: Shared }).__chatTests ??= {});

export default async (): Promise<void> => {
  const state = shared();
  state.starting ??= (async () => {
    // The SDK warns once per process that it will need Node 22 from 2027; tests run on Node 20.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    // Names this run: the e2e workers' shared services are registered under it (e2e.ts).
    process.env.CHAT_TEST_RUN = randomBytes(4).toString('hex');
    // One database per access key, each a file on a memory file system: a handler test file's
    // tables are a copy of its worker's seeded template (tables.ts tablesFromTemplate), made in a
    // millisecond instead of seeded in a second or more.
    const dbPath = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'chat-dynamo-'));
    process.env.DYNAMODB_DB_DIR = dbPath;
    state.dynamo = await startDynamoLocal({ dbPath, sharedDb: false });
    // Stopped by the global teardown, or, if jest itself is killed, by a watchdog.
    watchOwner(state.dynamo.process, false);
    process.env.DYNAMODB_ENDPOINT = state.dynamo.endpoint;
    process.env.AWS_REGION = 'us-east-1';
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
    process.env.REQUEST_LOG = 'off';
    // Powertools' development mode: its Logger writes through the global console, which a test
    // may watch (jest.spyOn(console, 'info')), and its Metrics write nothing (lib/log.ts).
    process.env.POWERTOOLS_DEV = 'true';
    process.env.DEVELOPMENT_MODE = 'on';
    // Password hashes at N = 2^11 (ms, not a second, a login that upgrades a hash); still not the
    // seeded cost (2^10), so a first login upgrades the hash as in production (config.passwordCost).
    process.env.PASSWORD_SCRYPT_N ||= '2048';
    closeClients();
    state.s3 = await startLocalS3();
    state.ses = await startLocalSes();
    // Not configured for every test (push would then be on everywhere): a test of push
    // notifications points PUSH_BOUNCER_URL at it (test/helpers/push.ts).
    state.bouncer = await startLocalBouncer();
    // The search database (PGlite behind the Data API), started by the first statement a test
    // sends (seconds of WebAssembly a run that never searches does not pay); one schema per file.
    state.search = await startLocalSearch({ lazy: true });
    process.env.SEARCH_ENDPOINT = state.search.endpoint;
    process.env.LOCAL_PUSH_BOUNCER_URL = state.bouncer.url;
    // The web app, built once for the run where nothing else writes (the page at / and /static/
    // serve it; lib/config.ts webappDist).
    const webappDist = mkdtempSync(join(tmpdir(), 'chat-webapp-'));
    await buildWebapp({ outdir: webappDist });
    process.env.WEBAPP_DIST = webappDist;
  })();
  await state.starting;
};
