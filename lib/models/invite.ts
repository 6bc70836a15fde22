// Invitations (email invitations and reusable links) and the confirmation links that sign-up and
// password reset send: their keys, and why a link does not work.
import { randomInt } from 'node:crypto';
import { escapeHtml } from './html';
import type { User } from './user';

/** A reusable invitation link. Revocation keeps the row with status 'revoked'. */
export type MultiuseInvite = {
  id: number;
  realmId: number;
  referredBy: number;
  invitedAs: number;
  streamIds: number[];
  dateCreated: number;
  /** UNIX seconds; null: never expires. */
  expiryDate: number | null;
  status: 'active' | 'revoked';
  /** The key of the /join/<key>/ link. */
  confirmationKey: string;
  includeRealmDefaultSubscriptions?: boolean;
  groupIds?: number[];
};

/**
 * An email invitation (upstream's PreregistrationUser with a referrer): one address, the role,
 * channels and groups its account gets, and the key of its /join/<key>/ link. Revocation deletes
 * it, as upstream's; an expired one stays until DynamoDB's TTL (`expiresAt`) removes it.
 */
export type EmailInvite = {
  id: number;
  realmId: number;
  /** The address as the inviter typed it (upstream keeps its case). */
  email: string;
  /** Who invited; null for a sign-up's own email confirmation (an organization open to sign-ups: lib/actions/way-in/sign-up.ts). */
  referredBy: number | null;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  /** UNIX seconds. */
  dateCreated: number;
  /** UNIX seconds; null: never expires. */
  expiryDate: number | null;
  confirmationKey: string;
  /** 'used' once an account was created from it (upstream's STATUS_USED): its link then works no more. */
  status?: 'used';
};

/** What a confirmation key (/join/<key>/) names: an email invitation or a reusable link. */
export type InviteByKey = { kind: 'email'; invite: EmailInvite } | { kind: 'multiuse'; invite: MultiuseInvite };

/** Why a confirmation link does not work (upstream's ConfirmationKeyError types: WRONG_LENGTH, DOES_NOT_EXIST, EXPIRED). */
export type ConfirmationLinkProblem = 'malformed' | 'does_not_exist' | 'expired';

/** A link that does not work; the page says which of upstream's three pages it is. */
export class ConfirmationLinkError extends Error {
  constructor(readonly problem: ConfirmationLinkProblem) {
    super(`confirmation link ${problem}`);
    this.name = 'ConfirmationLinkError';
  }
}

/** A reset link that works: its key and the account it resets. */
export type PasswordResetAccess = { resetKey: string; user: User };

/** The roles an invitation may grant (upstream's PreregistrationUser.INVITE_AS). */
export const INVITE_AS = { REALM_OWNER: 100, REALM_ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST_USER: 600 } as const;
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random 24-character key of a one-time link (/join/<key>/, a password reset), like upstream's confirmation keys. */
export const generateConfirmationKey = (): string =>
  Array.from({ length: 24 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');

/** Upstream's confirmation keys: 24 characters (40 for old ones); any other length is malformed. */
export const isKeyOfValidLength = (key: string): boolean => key.length === 24 || key.length === 40;

/**
 * The addresses of POST /invites' invitee_emails, as upstream's get_invitee_emails_set: split at
 * commas and newlines, `Name <address>` reduced to the address, trimmed, each once (an empty
 * entry is kept: the caller skips it but counts it, as upstream does).
 */
export const parseInviteeEmails = (raw: string): string[] => {
  const emails = new Set<string>();
  for (const part of new Set(raw.split(/[,\n]/))) {
    const named = /<(.*)>/.exec(part);
    emails.add((named ? named[1] : part).trim());
  }
  return [...emails];
};

// Django's EmailValidator, in substance: a dot-atom or quoted local part, and a domain of
// dot-separated labels with a letter-only top-level label (or a bracketed IP literal).
const LOCAL_PART = /^(?:[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(?:\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*|"(?:[^"\\\r\n]|\\.)*")$/i;
const DOMAIN_PART = /^(?:(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}|localhost|\[[0-9a-f:.]+\])$/i;

/** Whether an address is valid (upstream's "Invalid address." otherwise). At most 254 characters, as Django's. */
export const isValidEmailAddress = (email: string): boolean => {
  if (email.length > 254) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64) return false;
  return LOCAL_PART.test(local) && DOMAIN_PART.test(domain);
};

/** The invitation email (upstream's zerver/emails/invitation templates, in substance). */
export const invitationEmail = (opts: {
  referrerName: string;
  referrerEmail: string;
  realmName: string;
  joinUrl: string;
}): { subject: string; text: string; html: string } => {
  const subject = `${opts.referrerName} has invited you to join ${opts.realmName}`;
  const intro = `${opts.referrerName} (${opts.referrerEmail}) wants you to join them on Zulip -- the team communication tool designed for productivity.`;
  const text = ['Hi there,', '', intro, '', 'To get started, click the link below.', `    <${opts.joinUrl}>`, ''].join('\n');
  const html = [
    '<p>Hi there,</p>',
    `<p>${escapeHtml(intro)}</p>`,
    '<p>To get started, click the link below.</p>',
    `<p><a href="${escapeHtml(opts.joinUrl)}">Join ${escapeHtml(opts.realmName)}</a></p>`,
  ].join('\n');
  return { subject, text, html };
};
