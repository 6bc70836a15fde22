// The only code that talks to SES: sending an email, through @aws-sdk/client-sesv2 to SES_ENDPOINT
// (the local SES-compatible store that `npm start` and the tests run) or to AWS's own SES; the
// same call runs in both. The local store also lists what it was sent (development mode's /emails/).
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';

/** `fromName`: the sender's display name (upstream's from_name); `replyTo`: where replies go (the email gateway). */
export type OutgoingEmail = { to: string[]; subject: string; text: string; html: string; fromName?: string; replyTo?: string[] };

/** An address with a display name, quoted as RFC 5322 wants (a name with specials in quotes). */
const withName = (name: string, address: string): string => `"${name.replace(/["\\]/g, (c) => `\\${c}`)}" <${address}>`;

/** An email as the local store keeps it (aws-ses-v2-local's GET /store). */
export type SentEmail = {
  messageId: string;
  from: string;
  to: string[];
  replyTo: string[];
  subject: string;
  text: string;
  html: string;
  /** UNIX seconds. */
  at: number;
};

let cached: { key: string; client: SESv2Client } | undefined;

/** The shared SES client for the configured endpoint (rebuilt when the endpoint changes). */
const sesClient = (): SESv2Client => {
  const endpoint = config.sesEndpoint();
  const key = `${endpoint ?? ''}|${config.region()}`;
  if (cached?.key !== key) {
    cached?.client.destroy();
    cached = { key, client: new SESv2Client({ region: config.region(), ...(endpoint ? { endpoint } : {}) }) };
  }
  return cached.client;
};

/** Releases the client's sockets (scripts and tests that stop the store). */
export const closeSesClient = (): void => {
  cached?.client.destroy();
  cached = undefined;
};

/** Sends one email from the configured sender; resolves to SES's message id. */
export const sendEmail = async (email: OutgoingEmail): Promise<string | undefined> => {
  const out = await sesClient().send(
    new SendEmailCommand({
      FromEmailAddress: email.fromName ? withName(email.fromName, config.emailSender()) : config.emailSender(),
      Destination: { ToAddresses: email.to },
      ...(email.replyTo ? { ReplyToAddresses: email.replyTo } : {}),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
        },
      },
    }),
  );
  return out.MessageId;
};

/** The most emails the local store's list returns (newest first): a page, not a mailbox. */
const MAX_LISTED_EMAILS = 200;

type StoredEmail = {
  messageId?: unknown;
  from?: unknown;
  destination?: { to?: unknown };
  replyTo?: unknown;
  subject?: unknown;
  body?: { text?: unknown; html?: unknown };
  at?: unknown;
};

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The emails the local SES store was sent, newest first (at most MAX_LISTED_EMAILS), or undefined
 * when there is no local store (SES_ENDPOINT unset: AWS's SES keeps no list).
 */
export const listLocalSentEmails = async (): Promise<SentEmail[] | undefined> => {
  const endpoint = config.sesEndpoint();
  if (!endpoint) return undefined;
  const response = await fetch(new URL('/store', endpoint), { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`the local SES store answered ${response.status}`);
  const { emails } = (await response.json()) as { emails?: StoredEmail[] };
  return (emails ?? [])
    .map((e) => ({
      messageId: str(e.messageId),
      from: str(e.from),
      to: Array.isArray(e.destination?.to) ? e.destination.to.filter((a): a is string => typeof a === 'string') : [],
      replyTo: Array.isArray(e.replyTo) ? e.replyTo.filter((a): a is string => typeof a === 'string') : [],
      subject: str(e.subject),
      text: str(e.body?.text),
      html: str(e.body?.html),
      at: typeof e.at === 'number' ? e.at : 0,
    }))
    .reverse()
    .slice(0, MAX_LISTED_EMAILS);
};
