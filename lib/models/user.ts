import { ApiError, BadRequestError } from '../errors';

export const Role = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof Role)[keyof typeof Role];
/** Every role, as upstream's UserProfile.ROLE_TYPES. */
export const ROLE_VALUES = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST] as const;

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
  /**
   * Upstream's can_create_users: an administrator who may create accounts through POST /users.
   * Set only by an operator (upstream's change_user_role management command); absent means no.
   */
  canCreateUsers?: boolean;
  /**
   * The ids of the users who have muted this user (a number set on the item, kept by the mute and
   * unmute transactions with the mute items; lib/models/muted-user.ts). Absent when nobody has.
   */
  mutedBy?: number[];
  /** How many users this user has muted (kept with the mute items; bounds MAX_MUTED_USERS). */
  mutedCount?: number;
  /** A bot's: when (epoch seconds) its owner was last told of a misconfigured integration (upstream's last_reminder). */
  lastReminder?: number;
  /** An outgoing webhook bot's service (upstream's Service row): where and how its triggers are posted. */
  service?: BotService;
};

/** Upstream's Service of an outgoing webhook bot: the URL it posts to, its interface, and the token it sends along. */
export type BotService = { baseUrl: string; interface: number; token: string };

/** Upstream's Service.GENERIC and Service.SLACK: the formats an outgoing webhook posts in. */
export const ServiceInterface = { GENERIC: 1, SLACK: 2 } as const;

/**
 * Upstream's cross-realm system bots live in its internal organization (never served here); they
 * post automated notices in every organization. Stored as users of that organization.
 */
export const INTERNAL_REALM_ID = 1;
/** The system bot that posts automated notices (upstream's settings.NOTIFICATION_BOT). */
export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';
/** The system bot that welcomes organizations and people (upstream's settings.WELCOME_BOT). */
export const WELCOME_BOT_EMAIL = 'welcome-bot@zulip.com';

export const isAdmin = (user: User): boolean => user.role <= Role.ADMINISTRATOR;
export const isOwner = (user: User): boolean => user.role <= Role.OWNER;
export const isModerator = (user: User): boolean => user.role <= Role.MODERATOR;
export const isGuest = (user: User): boolean => user.role === Role.GUEST;

/** Upstream's bot types (UserProfile.DEFAULT_BOT, ...). */
export const BotType = { DEFAULT: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

/** Django's EmailValidator, reduced: a local part, an @, a dotted domain or localhost. */
const EMAIL_PATTERN = /^[^\s@]+@(localhost|[^\s@.]+(\.[^\s@.]+)+)$/i;
/**
 * Upstream's UserProfile email field: at most 254 characters. Counted in UTF-8 bytes here, so
 * that the email lock's key (keys.userEmailLock) always fits.
 */
const MAX_EMAIL_BYTES = 254;

/** Whether an email may be an account's (upstream's CreateUserForm email check). */
export const isValidEmail = (email: string): boolean => Buffer.byteLength(email, 'utf8') <= MAX_EMAIL_BYTES && EMAIL_PATTERN.test(email);

/** A bot's `services` as register's realm_bots, GET /bots and the realm_bot events show them: its one service, if any. */
export const botServices = (bot: Pick<User, 'service'>): { base_url: string; interface: number; token: string }[] =>
  bot.service ? [{ base_url: bot.service.baseUrl, interface: bot.service.interface, token: bot.service.token }] : [];

/**
 * A bot as register's realm_bots and the realm_bot add event show it (feature level 474: the
 * rest is in the user object). This server keeps no default channels for bots.
 */
export const botObject = (bot: Pick<User, 'id' | 'service'>) => ({
  user_id: bot.id,
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
  services: botServices(bot),
});

/** Upstream's UserProfile.MAX_NAME_LENGTH and MIN_NAME_LENGTH. */
const MAX_NAME_LENGTH = 100;
const MIN_NAME_LENGTH = 2;

/** Characters upstream refuses in a name (NAME_INVALID_CHARS), besides control and other unassigned characters. */
const NAME_INVALID_CHARS = /[*`\\>"@\p{C}]/u;

/**
 * Upstream's check_full_name: the name stripped, at most 100 and at least 2 characters ("Name too
 * long!", "Name too short!"), none of *`\\>"@ nor control characters ("Invalid characters in
 * name!"), and not ending in |<digits> as sent ("Invalid format!", which would read as a mention's
 * id). Returns the stripped name.
 */
export const checkFullName = (raw: string): string => {
  const name = raw.trim();
  if ([...name].length > MAX_NAME_LENGTH) throw new BadRequestError('Name too long!');
  if ([...name].length < MIN_NAME_LENGTH) throw new BadRequestError('Name too short!');
  if (NAME_INVALID_CHARS.test(name)) throw new BadRequestError('Invalid characters in name!');
  if (/\|\d+$/.test(raw)) throw new BadRequestError('Invalid format!');
  return name;
};

/** Upstream's PASSWORD_MIN_LENGTH and PASSWORD_MAX_LENGTH (register's password_min_length and password_max_length). */
export const PASSWORD_LENGTH = { min: 6, max: 100 } as const;

/** The sign-up forms' and POST /users' refusal of a short password (upstream's check_password_strength). */
export const WEAK_PASSWORD = 'The password is too weak.';

/** Whether a new account's password is long enough (upstream's check_password_strength, by code points). */
export const isStrongEnoughPassword = (password: string): boolean => [...password].length >= PASSWORD_LENGTH.min;

/**
 * The errors of a new account's own fields on a sign-up form (creating an organization, joining
 * one), in the forms' order: its name (checkFullName's message) and its password (WEAK_PASSWORD).
 */
export const accountFieldErrors = (fullName: string, password: string): string[] => {
  const errors: string[] = [];
  try {
    checkFullName(fullName);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    errors.push(error.message);
  }
  if (!isStrongEnoughPassword(password)) errors.push(WEAK_PASSWORD);
  return errors;
};
