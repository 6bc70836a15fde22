// A user's presence: when a client last reported them connected (idle or active) and active, and
// the organization-wide update id of the last change. The row also carries, copied from the user
// when it is written, what a presence response needs about them (email, bot, active, date joined),
// so that reading presence never reads the user list. The wire formats are built here.

/** Upstream's presence settings (zproject/default_settings.py); register exposes the first two. */
export const PRESENCE = {
  PING_INTERVAL_SECS: 60,
  /** 3 × ping interval + 20 ≤ this; after it a user shows as offline. */
  OFFLINE_THRESHOLD_SECS: 200,
  /** A timestamp is rewritten at most once per this many seconds. */
  UPDATE_MIN_FREQ_SECS: 55,
  /** Legacy format: "active" when the last activity is at most this much older than the last connection. */
  LEGACY_ACTIVE_OFFSET_SECS: 70,
  DEFAULT_HISTORY_LIMIT_DAYS: 14,
  /** A timestamp never set counts as this old when deciding what to rewrite. */
  NEVER_SET_AGE_SECS: 86400,
} as const;

/** A presence report is "became online" when the last activity is older than this (130 s). */
export const BECAME_ONLINE_AFTER_SECS = PRESENCE.OFFLINE_THRESHOLD_SECS - PRESENCE.PING_INTERVAL_SECS - 10;

export const PRESENCE_STATUSES = ['active', 'idle'] as const;
export type PresenceStatus = (typeof PRESENCE_STATUSES)[number];

export type Presence = {
  realmId: number;
  userId: number;
  /** Epoch seconds; null until the user is first reported active. */
  lastActiveTime: number | null;
  /** Epoch seconds; null only for rows written by older data (never by this service). */
  lastConnectedTime: number | null;
  /** Drawn from the organization's presence sequence at the last change. */
  lastUpdateId: number;
  // Copied from the user at write time.
  email: string;
  isBot: boolean;
  isActive: boolean;
  dateJoined: number;
};

/** The user fields a presence row carries. */
export type PresenceUserFields = Pick<Presence, 'email' | 'isBot' | 'isActive' | 'dateJoined'>;

export type ModernPresence = { active_timestamp: number; idle_timestamp: number };
export type LegacyClientPresence = { client: 'website'; status: PresenceStatus; timestamp: number; pushable: false };
export type LegacyPresence = {
  aggregated: { client: 'website'; status: PresenceStatus; timestamp: number };
  website: LegacyClientPresence;
};

/** Bots and deactivated users never appear in presence data. */
export const isReportable = (p: Presence): boolean => p.isActive && !p.isBot;

/** Timestamps as the API shows them: a time never set is the user's date_joined. */
const presenceTimes = (
  p: Pick<Presence, 'lastActiveTime' | 'lastConnectedTime' | 'dateJoined'>,
): { active: number; connected: number } => ({
  active: p.lastActiveTime ?? p.dateJoined,
  connected: p.lastConnectedTime ?? p.dateJoined,
});

export const toModernPresence = (p: Presence): ModernPresence => {
  const { active, connected } = presenceTimes(p);
  return { active_timestamp: active, idle_timestamp: connected };
};

/** The one-client legacy entry: "active" (at the activity time) when the activity is recent enough. */
export const toLegacyClientPresence = (p: Presence): LegacyClientPresence => {
  const { active, connected } = presenceTimes(p);
  const isActive = active + PRESENCE.LEGACY_ACTIVE_OFFSET_SECS >= connected;
  return { client: 'website', status: isActive ? 'active' : 'idle', timestamp: isActive ? active : connected, pushable: false };
};

export const toLegacyPresence = (p: Presence): LegacyPresence => {
  const website = toLegacyClientPresence(p);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
};
