// The `push` job's dispatch (lib/actions/jobs.ts lists it): everything that talks to the push
// bouncer runs here, never in a request. Above both paths: the end-to-end one (registration.ts,
// notifications.ts, removals.ts) and the legacy tokens' (legacy.ts), which share bouncer.ts.
import { doLegacyTokenJob } from './legacy';
import type { PushJob } from '../../models/push-job';
import { doRegisterDeviceWithBouncer } from './registration';
import { doSendMessageNotifications } from './notifications';
import { doRemoveDeletedNotifications, doRemoveNotifications } from './removals';

/**
 * The `push` job (functions/jobs/push.ts, or this process): a registration, a message's
 * notifications, removals, or a legacy token's registration or removal (lib/actions/push/legacy.ts).
 */
export const doPushJob = async (job: PushJob): Promise<void> => {
  if (job.kind === 'register') return doRegisterDeviceWithBouncer(job);
  if (job.kind === 'message') return doSendMessageNotifications(job);
  if (job.kind === 'removeDeleted') return doRemoveDeletedNotifications(job);
  if (job.kind === 'legacyRegister' || job.kind === 'legacyUnregister') return doLegacyTokenJob(job);
  return doRemoveNotifications(job);
};
