// Test processes run their background jobs themselves (no job function is configured for them):
// every job, as lib/actions/jobs.ts lists it, each loaded when it first runs (a file that starts no
// job never loads their code). A file may put its own runner in for one (defineJob).
import { JOBS } from '../../lib/actions/jobs';
import { runJobsInProcess } from '../../lib/store/jobs';

runJobsInProcess(JOBS);
