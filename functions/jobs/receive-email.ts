// The email gateway's Lambda function: SES receiving's receipt rule (serverless.yml
// IncomingEmailRuleSet) stores each email to the gateway's domain in the incoming-email bucket
// under `incoming/<SES message id>`, then invokes this function with the receipt; each email is
// read from there and handed to the same code as `npm run deliver-email`
// (lib/actions/missed-emails/reply-by-email.ts).
import { doReceiveStoredEmail } from '../../lib/actions/missed-emails/reply-by-email';

/** What SES receiving's Lambda action passes (the fields used here). */
type SesReceiptEvent = { Records: { ses: { mail: { messageId: string }; receipt: { recipients: string[] } } }[] };

export const handler = async (event: SesReceiptEvent): Promise<void> => {
  for (const record of event.Records) await doReceiveStoredEmail(`incoming/${record.ses.mail.messageId}`, record.ses.receipt.recipients);
};
