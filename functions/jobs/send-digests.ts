// The sendDigests job's Lambda function: invoked once a day by EventBridge Scheduler's recurring
// DigestSchedule (serverless.yml) with an empty payload, and by its own runs with an organization's
// next page of users (lib/actions/digests/send.ts). Scheduler and Lambda retry a failed run.
import { JOBS } from '../../lib/actions/jobs';
import type { DigestJob } from '../../lib/actions/digests/send';

export const handler = async (job: DigestJob | null | undefined): Promise<void> => (await JOBS.sendDigests.load())(job ?? {});
