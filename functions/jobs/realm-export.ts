// The realmExport job's Lambda function, invoked asynchronously (never over HTTP) by POST
// /export/realm and by each of its own runs that leaves messages to read: one run of the export
// (lib/actions/organization/export-job.ts doRealmExportRun). Lambda retries a failed run twice.
import { JOBS } from '../../lib/actions/jobs';
import type { ExportJob } from '../../lib/actions/organization/export-job';

export const handler = async (job: ExportJob): Promise<void> => (await JOBS.realmExport.load())(job);
