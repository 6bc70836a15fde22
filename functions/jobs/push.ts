// The push job's Lambda function, invoked asynchronously (never over HTTP) by POST
// /mobile_push/register and the legacy token routes (forwarding a registration to the push
// bouncer) and by a send that may notify someone (sending their devices the encrypted
// notification, their legacy tokens the legacy one): everything that talks to the bouncer, off
// the request (lib/actions/push/job.ts: notifications.ts, removals.ts, registration.ts, legacy.ts). Lambda retries a failed run
// (the bouncer down) twice.
import { JOBS } from '../../lib/actions/jobs';
import type { PushJob } from '../../lib/models/push-job';

export const handler = async (job: PushJob): Promise<void> => (await JOBS.push.load())(job);
