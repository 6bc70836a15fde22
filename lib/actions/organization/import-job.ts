// The realmImport job: imports an organization from an export archive in S3 across as many runs as
// its size needs (import-run.ts). Each run streams the archive again, writes messages for at most
// RUN_BUDGET_MS or config.importRunMessages(), then starts the next run with the checkpoint's run
// number. A refusal (a bad archive, a taken subdomain) is logged as a JSON line and ends the job,
// after removing what earlier runs wrote: trying again would be refused again. Any other failure is
// thrown, so Lambda runs the same run again from its checkpoint; the third failure in a row removes
// everything and is logged.
import { config } from '../../config';
import { log } from '../../log';
import { openObjectStream } from '../../store/files';
import { startJob } from '../../store/jobs';
import { ImportRefusedError } from './import-archive';
import { doImportRun, ImportFailedError, type ImportRunJob } from './import-run';

/** A run as started: the archive, the subdomain, and which run (1 when absent). */
export type ImportJob = ImportRunJob;

/** Half the function's time limit (900 s): a run stops starting message batches after it. */
const RUN_BUDGET_MS = 450_000;
/** Lambda's first attempt at a run and its two retries. */
const MAX_FAILURES = 3;

/** `s3://<bucket>/<key>` as a bucket and key, or undefined. */
export const parseS3Url = (url: string): { bucket: string; key: string } | undefined => {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  return m ? { bucket: m[1]!, key: m[2]! } : undefined;
};

/**
 * One run of an import of s3://`bucket`/`key` at `subdomain`: logs its outcome as one JSON line
 * (the next run started, the organization's id and counts, the refusal or the final failure).
 */
export const doRealmImportJob = async (job: ImportJob): Promise<void> => {
  const note = (fields: Record<string, unknown>) => log.info('realmImport', { ...job, ...fields });
  const open = async () => {
    const source = await openObjectStream(job.bucket, job.key);
    if (!source) throw new ImportRefusedError(`No archive at s3://${job.bucket}/${job.key}.`);
    return source;
  };
  try {
    const outcome = await doImportRun(job, open, {
      log: (line) => note({ step: line }),
      budget: { ms: RUN_BUDGET_MS, messages: config.importRunMessages() },
      maxFailures: MAX_FAILURES,
    });
    if ('next' in outcome) {
      note({ checkpoint: outcome.reached, next: outcome.next.run });
      await startJob('realmImport', outcome.next);
    } else if ('skipped' in outcome) note({ skipped: outcome.skipped });
    else {
      const { realm, writeUnits: _units, ...counts } = outcome.done;
      note({ imported: realm.id, ...counts });
    }
  } catch (error) {
    if (error instanceof ImportRefusedError) note({ refused: error.message });
    else if (error instanceof ImportFailedError) note({ failed: error.message });
    else throw error;
  }
};
