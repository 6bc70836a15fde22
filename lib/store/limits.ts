// The bounds of the stores' multi-item reads (queryAll in lib/store/common.ts takes one from every
// caller): the largest set one request is built to read. A read that finds more fails rather than
// reading on, so no request path reads an unbounded amount; a set that legitimately grows past its
// bound needs a paged path, not a larger number. Upstream has no such caps (a SQL query returns
// what it finds); these are ours, above what any organization of the service holds.

/** Users of one organization (register's user list, a channel's subscribers, presence rows, statuses). */
export const MAX_ORGANIZATION_USERS = 100_000;
/** Channels of one organization (archived ones included), and so one user's subscription rows. */
export const MAX_ORGANIZATION_CHANNELS = 10_000;
/** User groups of one organization (system groups included). */
export const MAX_ORGANIZATION_GROUPS = 10_000;
/** Linkifiers, custom profile fields, channel folders, invitation links of one organization. */
export const MAX_ORGANIZATION_SETTINGS_OBJECTS = 10_000;
/**
 * Pending email invitations of one organization (GET /invites reads them all): POST /invites
 * refuses invitations past it, with upstream's daily-limit error.
 */
export const MAX_ORGANIZATION_PENDING_INVITATIONS = 10_000;
/** Profile values of one organization: every user's value of every field (register's user list). */
export const MAX_ORGANIZATION_PROFILE_VALUES = 1_000_000;
/**
 * One user's own objects of one kind: drafts, scheduled messages and reminders, topic policies,
 * saved snippets, navigation views, client devices, direct-message conversations, bot storage entries.
 */
export const MAX_USER_OBJECTS = 100_000;
/** Topics of one channel (the topics endpoint's summaries). */
export const MAX_CHANNEL_TOPICS = 100_000;
