// `npm run import-realm -- <export.tar.gz> --subdomain <subdomain>`: creates an organization from
// an export archive (ours, or upstream's format; lib/actions/organization/import-realm.ts), as
// upstream's `manage.py import`. It reaches DynamoDB and S3 as `npm run seed` does
// (DYNAMODB_ENDPOINT, TABLE_PREFIX, S3_ENDPOINT, UPLOADS_BUCKET; `npm start` prints them). The
// archive is streamed from disk. A refusal prints its reason and exits 1, leaving nothing behind.
// A file is imported through the realmImport job's runs (import-run.ts), looped in this process
// with no budget. With `s3://<bucket>/<key>` instead it starts the realmImport job: on a deployed
// stage (REALM_IMPORT_FUNCTION set) its Lambda function, whose runs log their progress; locally,
// in this process, each run starting the next until the last.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { JOBS } from '../lib/actions/jobs';
import { parseS3Url, type ImportJob } from '../lib/actions/organization/import-job';
import { doImportRealm, ImportRefusedError } from '../lib/actions/organization/import-realm';
import { runJobsInProcess, settleJobs, startJob } from '../lib/store/jobs';
import { config } from '../lib/config';
import { realmUrl } from '../lib/models/realm';
import { closeS3Client } from '../lib/store/files';
import { closeClients } from '../lib/store/client';
import { waitForDynamo } from './local-dynamo';

const USAGE = 'usage: npm run import-realm -- <export.tar.gz | s3://bucket/key> --subdomain <subdomain>';

/** The archive path and the subdomain from the command line, or undefined when they are not both there. */
export const parseImportArgs = (argv: string[]): { archive: string; subdomain: string } | undefined => {
  const i = argv.indexOf('--subdomain');
  const subdomain = i >= 0 ? argv[i + 1] : undefined;
  const rest = argv.filter((_, j) => i < 0 || (j !== i && j !== i + 1));
  if (subdomain === undefined || rest.length !== 1) return undefined;
  return { archive: rest[0]!, subdomain };
};

/**
 * The command: imports the archive file (streamed) at the subdomain, or starts the realmImport job
 * for an s3:// URL; prints progress and the outcome. Refuses (ImportRefusedError) a bad command
 * line, a missing file, and whatever the import refuses.
 */
export const runImportCommand = async (argv: string[], print: (line: string) => void): Promise<void> => {
  const args = parseImportArgs(argv);
  if (!args) throw new ImportRefusedError(USAGE);
  const s3 = parseS3Url(args.archive);
  if (s3) {
    const job: ImportJob = { ...s3, subdomain: args.subdomain };
    await startJob('realmImport', job);
    await settleJobs();
    const fn = config.jobFunction('realmImport');
    print(
      fn
        ? `Started the realmImport job (${fn}) for ${args.archive}: its log says how it ended.`
        : `Ran the realmImport job for ${args.archive}.`,
    );
    return;
  }
  if (
    !(await stat(args.archive).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new ImportRefusedError(`No archive at ${args.archive}.`);
  const result = await doImportRealm(createReadStream(args.archive), args.subdomain, { log: (line) => print(`  ${line}`) });
  print(
    `Imported organization ${result.realm.id} at ${realmUrl(result.realm)}: ${result.users} users, ${result.channels} channels, ` +
      `${result.messages} messages, ${result.reactions} reactions, ${result.attachments} uploads. ` +
      'Its users set their passwords through password reset.',
  );
};

const main = async (): Promise<void> => {
  // The realmImport job started here (no job function is configured) runs in this process.
  runJobsInProcess(JOBS);
  await waitForDynamo();
  try {
    await runImportCommand(process.argv.slice(2), (line) => console.log(line));
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  } finally {
    closeClients();
    closeS3Client();
  }
};

if (require.main === module)
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
