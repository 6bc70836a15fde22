// The outgoingWebhook job's Lambda function, invoked asynchronously (never over HTTP) by a send
// that mentions an outgoing webhook bot in a channel or sends it a direct message, and by its own
// runs to try again (lib/actions/outgoing-webhooks/job.ts): it posts the message to the bot's
// service and sends the answer as the bot.
import { JOBS } from '../../lib/actions/jobs';
import type { OutgoingWebhookJob } from '../../lib/actions/outgoing-webhooks/triggers';

export const handler = async (job: OutgoingWebhookJob): Promise<void> => (await JOBS.outgoingWebhook.load())(job);
