// `npm start [-- --extra-users N] [--persist] [--verbose]`: the service on this machine with no
// other setup. Starts DynamoDB Local in memory (or uses DYNAMODB_ENDPOINT), creates the tables,
// seeds the development data set, builds the web app (webapp/build.ts) and serves every route at http://localhost:$PORT/api/v1 through
// serverless-offline, then prints a short banner (local-output.ts): serverless-offline's own
// output shows only where it tells of trouble, unless --verbose (or VERBOSE=1).
// Ctrl-C (SIGINT) or SIGTERM stops everything it started.
//
// Environment: PORT (3000), DYNAMODB_ENDPOINT (unset: start DynamoDB Local), S3_ENDPOINT (unset:
// start the local S3 store; "aws": AWS's S3) and UPLOADS_BUCKET, SES_ENDPOINT (unset: start the
// local SES store, whose emails development mode lists at /emails/; "aws": AWS's SES) and
// EMAIL_SENDER, PUSH_BOUNCER_URL with ZULIP_ORG_ID and ZULIP_ORG_KEY (unset: start the local push
// bouncer and register with it), DYNAMODB_PERSIST=1
// or --persist (keep DynamoDB Local's data in .dynamodb/), EXTRA_USERS or --extra-users N,
// DEVELOPMENT_MODE (unset: on; `off` runs without the development login, and then needs
// DEV_PASSWORD_SECRET for the seed).
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isVerbose, mattersWhenQuiet, readyBanner } from './local-output';
import { startLocalService, type LocalService } from './local-service';
import { JOBS } from '../lib/actions/jobs';
import { runJobsInProcess } from '../lib/store/jobs';
import { buildWebapp } from '../webapp/build';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

const DATA_DIR = '.dynamodb';
/** The search database's data (PGlite), kept between runs. */
const SEARCH_DATA_DIR = '.local/search';

/** The local dead-letter path: jobs that failed every attempt (scripts/local-lambda.ts). */
const DEAD_LETTER_FILE = '.local/dead-letters.jsonl';

const main = async (): Promise<void> => {
  // Jobs started here (no job function is configured) run in this process.
  runJobsInProcess(JOBS);
  const port = Number(process.env.PORT || 3000);
  const extraUsers = Number(argValue('--extra-users') ?? process.env.EXTRA_USERS ?? 0);
  if (!Number.isInteger(extraUsers) || extraUsers < 0) throw new Error(`--extra-users must be a whole number, got ${extraUsers}`);
  const persist = process.argv.includes('--persist') || process.env.DYNAMODB_PERSIST === '1';
  const verbose = isVerbose(process.argv, process.env);
  // The development login and the development secrets: on by name, here and only for this machine.
  process.env.DEVELOPMENT_MODE ??= 'on';

  let starting: Promise<LocalService> | undefined;
  const abort = new AbortController();
  const shutdown = async (reason: string, exitCode = 0): Promise<void> => {
    if (abort.signal.aborted) return;
    console.log(`\n${reason}: stopping serverless-offline, the local S3 and SES stores and DynamoDB Local...`);
    abort.abort();
    // A start in progress stops what it started and rejects; a finished one is stopped here.
    const service = await starting?.catch(() => undefined);
    await service?.stop();
    console.log('Stopped.');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // Whoever reads our output went away (a closed terminal or pipe): stop rather than crash and
  // leave the children running.
  process.stdout.on('error', () => void shutdown('output closed'));
  process.stderr.on('error', () => void shutdown('output closed'));
  process.on('uncaughtException', (error) => {
    console.error(error);
    void shutdown('unexpected error', 1);
  });

  mkdirSync(dirname(resolve(DEAD_LETTER_FILE)), { recursive: true });
  // The web app, into webapp/dist, where the page at / and /static/ read it (lib/web/assets.ts).
  await buildWebapp();
  let service: LocalService;
  try {
    starting = startLocalService({
      port,
      dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
      s3Endpoint: process.env.S3_ENDPOINT || undefined,
      sesEndpoint: process.env.SES_ENDPOINT || undefined,
      dataDir: persist ? DATA_DIR : undefined,
      searchDataDir: SEARCH_DATA_DIR,
      pushBouncer: true,
      deadLetterFile: resolve(DEAD_LETTER_FILE),
      extraUsers,
      log: (line) => console.log(line),
      offlineLog: (line) => {
        if (verbose || mattersWhenQuiet(line)) console.log(line);
      },
      signal: abort.signal,
    });
    service = await starting;
  } catch (error) {
    // A Ctrl-C during startup makes the start fail; shutdown() reports and exits.
    if (abort.signal.aborted) return;
    throw error;
  }
  const origin = new URL(service.baseUrl).origin;
  // One write, ending with the ready line and where to go: the last lines a terminal shows.
  console.log(
    readyBanner({
      origin,
      baseUrl: service.baseUrl,
      dynamodbEndpoint: service.dynamodbEndpoint,
      tablePrefix: process.env.TABLE_PREFIX ?? 'chat-local-',
      developmentMode: process.env.DEVELOPMENT_MODE === 'on',
      verbose,
    }),
  );
};

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
