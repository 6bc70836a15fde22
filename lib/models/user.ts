export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof Role)[keyof typeof Role];

export type User = {
  id: number;
  realmId: number;
  /** The API email (also the delivery email: this server has no email visibility settings yet). */
  email: string;
  fullName: string;
  role: number;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  timezone: string;
  dateJoined: number;
  apiKey: string;
  presenceEnabled: boolean;
  enableDraftsSynchronization: boolean;
  /** Personal settings changed from upstream's defaults (PATCH /settings), by wire name. */
  settings?: Record<string, boolean | number | string>;
  /** "G" (Gravatar) or "U" (uploaded, POST /users/me/avatar); unset means "G". */
  avatarSource?: 'G' | 'U';
  /** Grows at every avatar change; unset means 1. */
  avatarVersion?: number;
  /** The S3 key base of the uploaded avatar (`<realm id>/<random>`), set by the upload. */
  avatarPath?: string;
};

/**
 * Upstream's cross-realm system bots live in its internal organization (never served here); they
 * post automated notices in every organization. Stored as users of that organization.
 */
export const INTERNAL_REALM_ID = 1;
/** The system bot that posts automated notices (upstream's settings.NOTIFICATION_BOT). */
export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';

export const isAdmin = (user: User): boolean => user.role <= Role.ADMINISTRATOR;
export const isOwner = (user: User): boolean => user.role <= Role.OWNER;
export const isModerator = (user: User): boolean => user.role <= Role.MODERATOR;
export const isGuest = (user: User): boolean => user.role === Role.GUEST;
