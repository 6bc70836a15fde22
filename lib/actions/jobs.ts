// Every background job, by name: what one run of it does. The jobs' Lambda functions
// (functions/jobs/) run them from here, and so does a process that runs its jobs itself
// (runJobsInProcess: the tests' setup, the scripts): no job exists because some module that
// defines it happened to be imported first.
import type { JobName } from '../store/jobs';
import { doMessageFanout } from './messages/delivery';
import { doMessageMove } from './messages/move';
import { doPushJob } from './push/job';

export const JOBS = {
  messageFanout: doMessageFanout,
  messageMove: doMessageMove,
  push: doPushJob,
} satisfies Record<JobName, (payload: never) => Promise<void>>;
