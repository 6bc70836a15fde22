// Every background job, by name: where the action one run of it calls lives. The jobs' Lambda
// functions (functions/jobs/) run them from here, and so does a process that runs its jobs itself
// (runJobsInProcess: the tests' setup, the scripts): no job exists because some module that
// defines it happened to be imported first. Each entry loads its module only when the job first
// runs, so a process (a test file) that starts no job never loads the jobs' code.
//
// The modules are loaded with require(), not import(): `npm start` runs the handlers as CommonJS
// through tsx, where a dynamic import() goes to Node's ES module resolver, which finds no
// extensionless TypeScript module. esbuild's bundles and jest resolve require() as they do imports.
/* eslint-disable @typescript-eslint/no-require-imports */
import type { JobEntry, JobName } from '../store/jobs';

export const JOBS = {
  messageFanout: { load: async () => (require('./messages/delivery') as typeof import('./messages/delivery')).doMessageFanout },
  messageMove: { load: async () => (require('./messages/move') as typeof import('./messages/move')).doMessageMove },
  outgoingWebhook: {
    load: async () => (require('./outgoing-webhooks/job') as typeof import('./outgoing-webhooks/job')).doOutgoingWebhook,
  },
  push: { load: async () => (require('./push/job') as typeof import('./push/job')).doPushJob },
  realmExport: { load: async () => (require('./organization/export-job') as typeof import('./organization/export-job')).doRealmExportRun },
  realmImport: { load: async () => (require('./organization/import-job') as typeof import('./organization/import-job')).doRealmImportJob },
  sendDigests: { load: async () => (require('./digests/send') as typeof import('./digests/send')).doSendDigests },
  scheduledDelivery: {
    load: async () => (require('./scheduled-jobs') as typeof import('./scheduled-jobs')).doScheduledJob,
  },
} satisfies { [N in JobName]: JobEntry<never> };
