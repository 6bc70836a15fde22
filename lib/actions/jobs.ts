// Every background job, by name: where the action one run of it calls lives. The jobs' Lambda
// functions (functions/jobs/) run them from here, and so does a process that runs its jobs itself
// (runJobsInProcess: the tests' setup, the scripts): no job exists because some module that
// defines it happened to be imported first. Each entry imports its module only when the job first
// runs, so a process (a test file) that starts no job never loads the jobs' code.
import type { JobEntry, JobName } from '../store/jobs';

export const JOBS = {
  messageFanout: { load: async () => (await import('./messages/delivery')).doMessageFanout },
  messageMove: { load: async () => (await import('./messages/move')).doMessageMove },
  push: { load: async () => (await import('./push/job')).doPushJob },
} satisfies { [N in JobName]: JobEntry<never> };
