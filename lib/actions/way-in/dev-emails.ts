// Development mode's outbox (upstream's /emails/ page of its development server): the emails the
// local SES store was sent, so that someone trying the service locally can follow an invitation.
import { config } from '../../config';
import { listLocalSentEmails, type SentEmail } from '../../store/emails';

/**
 * The emails sent through the local SES store, newest first; undefined outside development mode
 * (the page does not exist there). Empty when the service sends through AWS's SES, which keeps no list.
 */
export const listDevelopmentEmails = async (): Promise<SentEmail[] | undefined> => {
  if (!config.isDevelopment()) return undefined;
  return (await listLocalSentEmails()) ?? [];
};
