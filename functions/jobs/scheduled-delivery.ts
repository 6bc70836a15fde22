// The scheduledDelivery job's Lambda function, invoked by one-time EventBridge Scheduler schedules
// at their time (lib/store/schedules.ts) and by sends (missed-message emails): runs the job its
// payload names (lib/actions/scheduled-jobs.ts). Scheduler and Lambda retry a failed run.
import { JOBS } from '../../lib/actions/jobs';
import type { ScheduledJob } from '../../lib/actions/scheduled-jobs';

export const handler = async (job: ScheduledJob): Promise<void> => (await JOBS.scheduledDelivery.load())(job);
