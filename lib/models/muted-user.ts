// Muted users (upstream's MutedUser, zerver/lib/muted_users.py): a user hides another user's
// messages from themselves. The mute is one item in the muter's partition (register's list, the
// `muted_users` event); the muted user's own item carries the ids of their muters (`mutedBy`), so a
// send and a typing notification, which already hold the sender's item, know whom to treat as
// having muted them without another read (docs/data-model.md, "Muted users").
import type { User } from './user';

export type MutedUser = {
  /** The muter. */
  userId: number;
  mutedUserId: number;
  /** When the mute was made, UNIX seconds (upstream's date_muted). */
  mutedAt: number;
};

/** One entry of register's `muted_users` and of the `muted_users` event. */
export type ApiMutedUser = { id: number; timestamp: number };

export const apiMutedUser = (m: MutedUser): ApiMutedUser => ({ id: m.mutedUserId, timestamp: m.mutedAt });

/**
 * The most users one user may mute. Every mute is listed in the muter's `muted_users` event, an
 * item of the events table (400 KB): 1,000 entries are about 40 KB. Upstream has no such cap.
 */
export const MAX_MUTED_USERS = 1_000;

/**
 * The most users who may mute one user: their ids ride on the muted user's item (about 5 bytes
 * each in a number set, so at most ~60 KB), which authentication and register read. Upstream has
 * no such cap.
 */
export const MAX_MUTERS = 10_000;

/** The ids of the users who have muted this user (from the user's own item; none when unset). */
export const mutersOf = (user: Pick<User, 'mutedBy'>): Set<number> => new Set(user.mutedBy ?? []);
