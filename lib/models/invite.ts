import { randomInt } from 'node:crypto';

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

/** The roles an invitation may grant (upstream's PreregistrationUser.INVITE_AS). */
export const INVITE_AS = { REALM_OWNER: 100, REALM_ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST_USER: 600 } as const;
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random 24-character key for an invitation link (/join/<key>/), like upstream's confirmation keys. */
export const generateConfirmationKey = (): string =>
  Array.from({ length: 24 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
