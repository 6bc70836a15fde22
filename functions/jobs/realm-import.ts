// The realmImport job's Lambda function, invoked asynchronously (never over HTTP) by an operator's
// `npm run import-realm -- s3://<bucket>/<key> --subdomain <s>`: one import
// (lib/actions/organization/import-job.ts doRealmImportJob). Lambda retries a failed run twice.
import { JOBS } from '../../lib/actions/jobs';
import type { ImportJob } from '../../lib/actions/organization/import-job';

export const handler = async (job: ImportJob): Promise<void> => (await JOBS.realmImport.load())(job);
