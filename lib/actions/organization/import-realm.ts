// Importing an organization from an export archive in one process (`npm run import-realm` with a
// file, the tests, the benchmark): one run of the realmImport job's (import-run.ts) without a
// time or message budget, so that it does it all. Its checkpoint and undo log live in the
// uploads bucket under imports/local/, removed when it ends; a failure is not tried again: it
// removes everything written at once.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { config } from '../../config';
import type { ArchiveLimits } from './import-archive';
import { doImportRun, ImportFailedError, type ImportResult, type ImportRunJob } from './import-run';

export { ImportRefusedError } from './import-archive';
export type { ImportResult } from './import-run';

export type ImportOptions = {
  /** Progress lines (the CLI prints them); awaited, so a caller can act between steps. */
  log?: (line: string) => void | Promise<void>;
  limits?: ArchiveLimits;
};

/**
 * Creates an organization at `subdomain` from the export archive `source` (a .tar.gz stream).
 * Refuses (ImportRefusedError, nothing left) a subdomain that is invalid, reserved or taken, and
 * an archive that is hostile, malformed, of another format, or whose ids name nothing. Writes the
 * organization with its system groups, users (no password: they set one through password reset),
 * channels, subscriptions, messages (same order, dates, senders, topics, edit history, read state),
 * reactions and uploads; the subdomain is claimed last, and a failure before removes what was
 * written. Emits nothing: nobody can be connected to an organization that did not exist.
 */
export const doImportRealm = async (source: Readable, subdomain: string, opts: ImportOptions = {}): Promise<ImportResult> => {
  const job: ImportRunJob = { bucket: config.uploadsBucket(), key: `imports/local/${randomUUID()}`, subdomain };
  // Without a budget the first run writes everything, so the stream is read once.
  const outcome = await doImportRun(job, () => Promise.resolve(source), {
    ...opts,
    budget: { ms: Infinity, messages: Infinity },
    maxFailures: 1,
  }).catch((error: unknown) => {
    throw error instanceof ImportFailedError ? error.cause : error;
  });
  if ('done' in outcome) return outcome.done;
  throw new Error(`import ${subdomain}: ${'skipped' in outcome ? outcome.skipped : 'it did not finish in one run'}`);
};
