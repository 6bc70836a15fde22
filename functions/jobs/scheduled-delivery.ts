// The scheduledDelivery job's Lambda function, invoked by a scheduled message's (or reminder's)
// one-time EventBridge Scheduler schedule at its time (lib/store/schedules.ts): delivers it once,
// or marks it failed (lib/actions/scheduled-delivery.ts). Scheduler and Lambda retry a failed run.
import { JOBS } from '../../lib/actions/jobs';
import type { ScheduledDeliveryJob } from '../../lib/actions/scheduled-delivery';

export const handler = async (job: ScheduledDeliveryJob): Promise<void> => (await JOBS.scheduledDelivery.load())(job);
