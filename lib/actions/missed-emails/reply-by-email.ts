// Reply by email (upstream's email gateway for missed-message emails, zerver/lib/email_mirror.py):
// a missed-message email's Reply-To is an address of the gateway whose local part is a token
// ("mm" and 32 hex digits) tied to the recipient and the conversation, stored with an expiry. An
// email to it (SES receiving in AWS: functions/jobs/receive-email.ts; `npm run deliver-email`
// locally) posts its text, without the quoted part, as that recipient into the conversation. An
// address that is not the gateway's, a token that is malformed, unknown (forged) or expired, or a
// deactivated user or organization: the email is dropped with a log line, nothing is posted.
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import { ApiError } from '../../errors';
import type { Message } from '../../models/message';
import { NOTIFICATION_BOT_EMAIL, type User } from '../../models/user';
import { getIncomingEmail } from '../../store/files';
import * as channelsStore from '../../store/channels';
import * as messagesStore from '../../store/messages';
import * as realmsStore from '../../store/realms';
import { createReplyAddress, getReplyAddress, isReplyToken } from '../../store/reply-addresses';
import * as usersStore from '../../store/users';
import { sendCheckedMessage, sendInternalMessage } from '../messages/send';
import { checkScheduledSend } from '../scheduled-delivery';
import { log } from '../../log';

/** The reply address of a missed-message email to `user` about `message`'s conversation; undefined without a gateway. */
export const replyAddressOf = async (user: User, message: Message): Promise<string | undefined> => {
  const pattern = config.emailGatewayPattern();
  if (!pattern) return undefined;
  const { token } = await createReplyAddress(user.realmId, user.id, message.id, nowSeconds());
  return pattern.replace('%s', token);
};

/** The local part of an address the gateway's pattern matches, else undefined. */
const gatewayLocalPart = (address: string, pattern: string): string | undefined => {
  const [before, after] = pattern.split('%s');
  const lower = address.toLowerCase();
  if (!lower.startsWith(before.toLowerCase()) || !lower.endsWith(after.toLowerCase())) return undefined;
  return address.slice(before.length, address.length - after.length);
};

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));

/** Upstream's find_emailgateway_recipient: the envelope's recipients, then the headers, most accurate first. */
const gatewayRecipient = (mail: ParsedMail, envelope: string[], pattern: string): string | undefined => {
  const header = (name: string): string[] => {
    const value = mail.headers.get(name);
    return value === undefined
      ? []
      : typeof value === 'string'
        ? [value.replace(/^.*<|>.*$/g, '').trim()]
        : addressesOf(value as AddressObject);
  };
  const candidates = [
    ...envelope,
    ...header('x-gm-original-to'),
    ...header('delivered-to'),
    ...header('envelope-to'),
    ...addressesOf(mail.to),
    ...addressesOf(mail.cc),
  ];
  return candidates.find((a) => gatewayLocalPart(a, pattern) !== undefined);
};

/** A reply client's attribution line ("On Mon, … X wrote:", possibly wrapped over two lines) or an Outlook separator. */
const ATTRIBUTION = /^\s*On\b[\s\S]*\bwrote:\s*$/;
const ORIGINAL_MESSAGE = /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i;

/**
 * The reply's own text (what upstream keeps with talon's extract_from_plain, and filter_footer):
 * cut at the quoted part (an attribution line, an "Original Message" separator, or the quoted
 * lines that end the email) and at a lone "--" signature separator.
 */
export const replyText = (text: string): string => {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i += 1) {
    if (
      ORIGINAL_MESSAGE.test(lines[i]) ||
      ATTRIBUTION.test(lines[i]) ||
      (i + 1 < lines.length && ATTRIBUTION.test(`${lines[i]} ${lines[i + 1]}`) && /^\s*On\b/.test(lines[i]))
    ) {
      end = i;
      break;
    }
    if (/^\s*>/.test(lines[i]) && lines.slice(i).every((l) => l.trim() === '' || /^\s*>/.test(l))) {
      end = i;
      break;
    }
  }
  let kept = lines.slice(0, end);
  const footers = kept.filter((l) => l.trim() === '--');
  if (footers.length === 1)
    kept = kept.slice(
      0,
      kept.findIndex((l) => l.trim() === '--'),
    );
  return kept.join('\n').trim();
};

/** The email's text: its plain part, else its HTML part's text. */
const bodyOf = (mail: ParsedMail): string => {
  if (typeof mail.text === 'string' && mail.text.trim() !== '') return mail.text;
  if (typeof mail.html === 'string') return mail.html.replace(/<br\s*\/?>|<\/p>/gi, '\n').replace(/<[^>]+>/g, '');
  return '';
};

/** Why an email was dropped, logged (the address's token left out, as upstream's redacted log). */
const drop = (reason: string, facts: Record<string, unknown> = {}): void => {
  log.info('email gateway: dropped', { reason, ...facts });
};

/**
 * Posts a reply received by email (upstream's process_missed_message): finds the gateway address
 * among `envelope` (the receiving service's recipients) and the headers, loads its reply address,
 * and posts the reply's text (replyText; "(No email body)" when empty) as the address's user into
 * its message's conversation, checked as their own send (client "Internal"). A channel reply the
 * checks refuse gets the user Notification Bot's direct message saying why, as upstream's; a
 * refused direct-message reply is logged. Returns the new message's id, or undefined when dropped.
 */
export const doReceiveEmail = async (raw: Buffer, envelope: string[] = []): Promise<number | undefined> => {
  const pattern = config.emailGatewayPattern();
  if (!pattern) return (drop('the email gateway is off'), undefined);
  const mail = await simpleParser(raw);
  const to = gatewayRecipient(mail, envelope, pattern);
  if (to === undefined) return (drop('Missing recipient in mirror email'), undefined);
  const token = gatewayLocalPart(to, pattern)!.toLowerCase();
  if (!isReplyToken(token)) return (drop('Could not parse missed message address'), undefined);
  const address = await getReplyAddress(token);
  if (!address) return (drop('Zulip notification reply address is invalid.'), undefined);
  if (address.expiresAt <= nowSeconds())
    return (drop('Zulip notification reply address has expired.', { userId: address.userId }), undefined);
  const [realm, user, message] = await Promise.all([
    realmsStore.get(address.realmId),
    usersStore.get(address.realmId, address.userId, { consistent: true }),
    messagesStore.getMessage(address.realmId, address.messageId, { consistent: true }),
  ]);
  if (!realm || realm.deactivated || !user || !user.isActive)
    return (drop('Sending user is not active. Ignoring this message notification email.', { userId: address.userId }), undefined);
  if (!message) return (drop('The message of the reply address is gone.', { userId: user.id }), undefined);
  const content = replyText(bodyOf(mail)) || '(No email body)';
  const send =
    message.streamId === null
      ? { type: 'private' as const, to: message.dmUserIds.filter((id) => id !== user.id), topic: undefined }
      : { type: 'stream' as const, to: message.streamId, topic: message.topic };
  try {
    const checked = await checkScheduledSend(user, realm, {
      ...send,
      to: send.type === 'private' && send.to.length === 0 ? [user.id] : send.to,
      content,
      client: 'Internal',
    });
    const { id } = await sendCheckedMessage(realm, user, checked);
    log.info('email gateway: posted', { userId: user.id, messageId: id });
    return id;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    drop(error.message, { userId: user.id });
    const channel = message.streamId === null ? undefined : await channelsStore.getChannel(realm.id, message.streamId);
    const bot = channel && (await usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL));
    if (channel && bot)
      await sendInternalMessage(
        realm,
        bot,
        { user },
        `Error sending message to channel ${channel.name} via message notification email reply:\n${error.message}`,
      );
    return undefined;
  }
};

/** An email SES receiving stored under `key` (functions/jobs/receive-email.ts), with its envelope's recipients. */
export const doReceiveStoredEmail = async (key: string, envelope: string[]): Promise<number | undefined> => {
  const raw = await getIncomingEmail(key);
  if (!raw) return (drop('The stored email is missing.', { key }), undefined);
  return doReceiveEmail(raw, envelope);
};
