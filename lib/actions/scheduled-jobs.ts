// What the scheduledDelivery job runs: whatever a one-time schedule (lib/store/schedules.ts) or a
// send starts, by the payload's `kind`: a scheduled message's or reminder's delivery (no kind), a
// message's missed-message email candidates (missedEmailStart), a user's batch of missed-message
// emails at the end of its period (missedEmail). One function, one scheduler role, one registry entry.
import { doSendMissedEmails } from './missed-emails/deliver';
import { doStartMissedEmailBatches, type MissedEmailJob } from './missed-emails/enqueue';
import type { MissedEmailStartJob } from './missed-emails/start';
import { doDeliverScheduledMessage, type ScheduledDeliveryJob } from './scheduled-delivery';

export type ScheduledJob = (ScheduledDeliveryJob & { kind?: undefined }) | MissedEmailStartJob | MissedEmailJob;

/** The scheduledDelivery job's run: dispatches by `kind`. */
export const doScheduledJob = async (job: ScheduledJob): Promise<void> => {
  if (job.kind === 'missedEmailStart') return doStartMissedEmailBatches(job);
  if (job.kind === 'missedEmail') return doSendMissedEmails(job);
  return doDeliverScheduledMessage(job);
};
