// The realmImport job: imports an organization from an export archive in S3 (doImportRealm,
// import-realm.ts), streamed from the object, in one run. A refusal (a bad archive, a taken
// subdomain) is logged as a JSON line and ends the job: trying again would be refused again. Any
// other failure has removed what it wrote and is thrown, so Lambda runs the job again from the start.
import { log } from '../../log';
import { openObjectStream } from '../../store/files';
import { doImportRealm, ImportRefusedError } from './import-realm';

export type ImportJob = { bucket: string; key: string; subdomain: string };

/** `s3://<bucket>/<key>` as a bucket and key, or undefined. */
export const parseS3Url = (url: string): { bucket: string; key: string } | undefined => {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  return m ? { bucket: m[1]!, key: m[2]! } : undefined;
};

/**
 * One import: reads s3://`bucket`/`key` as a stream and imports it at `subdomain`; logs the
 * outcome (the organization's id and counts, or the refusal) as one JSON line.
 */
export const doRealmImportJob = async (job: ImportJob): Promise<void> => {
  const note = (fields: Record<string, unknown>) => log.info('realmImport', { ...job, ...fields });
  const source = await openObjectStream(job.bucket, job.key);
  if (!source) {
    note({ refused: `No archive at s3://${job.bucket}/${job.key}.` });
    return;
  }
  try {
    const result = await doImportRealm(source, job.subdomain, { log: (line) => note({ step: line }) });
    const { realm, writeUnits: _units, ...counts } = result;
    note({ imported: realm.id, ...counts });
  } catch (error) {
    if (!(error instanceof ImportRefusedError)) throw error;
    note({ refused: error.message });
  }
};
