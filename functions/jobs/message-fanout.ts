// The messageFanout job's Lambda function, invoked asynchronously (never over HTTP) by a send to
// more than MESSAGE_INLINE_RECIPIENTS recipients: writes the rows the send left and sends the message's
// events (lib/actions/messages/delivery.ts). Lambda retries a failed run twice.
import { JOBS } from '../../lib/actions/jobs';
import type { FanoutJob } from '../../lib/actions/messages/delivery';

export const handler = async (job: FanoutJob): Promise<void> => (await JOBS.messageFanout.load())(job);
