// Presence: recording a user's reports and reading the organization's presence, with upstream's
// rules (zerver/actions/presence.py, zerver/lib/presence.py). A report costs a constant number of
// requests (one consistent read of the user's row and the sequence, at most one transaction, and
// the event when there is one); reading presence reads only the rows it returns.
import { accessUserForPresence } from '../../access/users';
import { config } from '../../config';
import { nowMs, nowSeconds } from '../../clock';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { PresenceEvent } from '../../models/event';
import {
  BECAME_ONLINE_AFTER_SECS,
  PRESENCE,
  PRESENCE_STATUSES,
  toLegacyClientPresence,
  toModernPresence,
  type Presence,
  type PresenceStatus,
} from '../../models/presence';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as presenceStore from '../../store/presence';
import * as usersStore from '../../store/users';
import { LostRaceError, retryLostRaces } from '../retry';
import { forHumans } from '../requiring';

/** Parses a reported status: `Invalid status: x` for anything but active or idle. */
export const checkPresenceStatus = (status: string): PresenceStatus => {
  const found = PRESENCE_STATUSES.find((s) => s === status);
  if (!found) throw new BadRequestError(`Invalid status: ${status}`);
  return found;
};

export type PresenceChange = {
  /** The row to store, or null when nothing changes (its lastUpdateId is filled in by the writer). */
  next: Omit<Presence, 'lastUpdateId'> | null;
  created: boolean;
  becameOnline: boolean;
};

/**
 * What a report at `now` changes (upstream's do_update_user_presence, without the write): a first
 * report creates the row; later, each timestamp is rewritten only when older than 55 s, and a
 * fresh activity also moves the connection time forward. "Became online" means reported active
 * after more than 130 s without activity. Pure.
 */
export const computePresenceChange = (user: User, previous: Presence | undefined, status: PresenceStatus, now: number): PresenceChange => {
  const userFields = {
    realmId: user.realmId,
    userId: user.id,
    email: user.email,
    isBot: user.isBot,
    isActive: user.isActive,
    dateJoined: user.dateJoined,
  };
  const sinceActive = previous?.lastActiveTime == null ? PRESENCE.NEVER_SET_AGE_SECS : now - previous.lastActiveTime;
  const sinceConnected = previous?.lastConnectedTime == null ? PRESENCE.NEVER_SET_AGE_SECS : now - previous.lastConnectedTime;
  const becameOnline = status === 'active' && sinceActive > BECAME_ONLINE_AFTER_SECS;
  if (previous === undefined) {
    return {
      next: { ...userFields, lastActiveTime: status === 'active' ? now : null, lastConnectedTime: now },
      created: true,
      becameOnline,
    };
  }
  let { lastActiveTime, lastConnectedTime } = previous;
  let changed = false;
  if (sinceConnected > PRESENCE.UPDATE_MIN_FREQ_SECS) {
    lastConnectedTime = now;
    changed = true;
  }
  if (status === 'active' && sinceActive > PRESENCE.UPDATE_MIN_FREQ_SECS) {
    lastActiveTime = now;
    changed = true;
    if (lastConnectedTime === null || now > lastConnectedTime) lastConnectedTime = now;
  }
  return { next: changed ? { ...userFields, lastActiveTime, lastConnectedTime } : null, created: false, becameOnline };
};

/** The event for a changed row, carrying every shape a queue may want (lib/events/filters/presence.ts picks one per queue). */
export const buildPresenceEvent = (row: Presence, serverTimestamp: number): PresenceEvent => ({
  type: 'presence',
  user_id: row.userId,
  email: row.email,
  server_timestamp: serverTimestamp,
  presence: { website: toLegacyClientPresence(row) },
  presences: { [String(row.userId)]: toModernPresence(row) },
});

/**
 * Records a presence report of `user` (POST /users/me/presence). Bots are refused (forHumans);
 * nothing about the request is checked (see checkPresenceStatus). Users who share no presence (presence_enabled
 * false) write nothing. Otherwise writes the user's row under the next update id of the
 * organization's sequence, in one transaction with the sequence; a write that loses a race with
 * another report re-reads and decides again, so a concurrent duplicate report writes nothing.
 * Emits a `presence` event to the whole organization when the row was created or the user came
 * online, unless the organization has presence disabled or more active users than
 * `config.presenceEventUserLimit()` (upstream's 100). Returns the row as stored, if written.
 */
export const doUpdateUserPresence = forHumans(async (user: User, realm: Realm, status: PresenceStatus): Promise<Presence | undefined> => {
  if (!user.presenceEnabled) return undefined;
  const written = await retryLostRaces(async () => {
    const { presence: previous, sequence } = await presenceStore.getWithSequence(user.realmId, user.id);
    const change = computePresenceChange(user, previous, status, nowSeconds());
    if (change.next === null) return undefined;
    const row: Presence = { ...change.next, lastUpdateId: sequence + 1 };
    // Another report took the sequence (or this row) first: read and decide again.
    if (!(await presenceStore.write(row, sequence, previous?.lastUpdateId))) throw new LostRaceError();
    return { row, change };
  });
  if (!written) return undefined;
  if (
    !realm.presenceDisabled &&
    (written.change.created || written.change.becameOnline) &&
    // Upstream's cut-off: a large organization's waiting polls are not woken; its clients poll presence.
    !(await usersStore.hasMoreActiveUsersThan(realm.id, config.presenceEventUserLimit()))
  ) {
    await sendEvent(realm.id, buildPresenceEvent(written.row, nowMs() / 1000), 'realm');
  }
  return written.row;
});

export type SingleUserPresence = {
  website: { status: PresenceStatus; timestamp: number };
  aggregated: { status: PresenceStatus | 'offline'; timestamp: number };
};

/**
 * One user's presence (GET /users/{user_id_or_email}/presence): of the active human user of the
 * caller's organization the path names (accessUserForPresence), the legacy entries without
 * `client` and `pushable`, the aggregated status "offline" after 200 s. `No presence data for
 * <path>` when the user has no row. Reads only.
 */
export const getUserPresence = async (realm: Realm, userIdOrEmail: string): Promise<SingleUserPresence> => {
  const target = await accessUserForPresence(realm, userIdOrEmail);
  const row = await presenceStore.get(target.realmId, target.id);
  if (!row) throw new BadRequestError(`No presence data for ${userIdOrEmail}`);
  // The user record is current; the row's copy of date_joined may predate a change.
  const { status, timestamp } = toLegacyClientPresence({ ...row, dateJoined: target.dateJoined });
  const offline = nowSeconds() - timestamp > PRESENCE.OFFLINE_THRESHOLD_SECS;
  return { website: { status, timestamp }, aggregated: { status: offline ? 'offline' : status, timestamp } };
};

/**
 * Keeps the user's presence row in step with the user (call after changing a user's email,
 * deactivating or reactivating them, or changing their bot status): presence responses read
 * these copies instead of the user list. Writes the row if it exists; emits nothing.
 */
export const syncPresenceUserFields = async (user: User): Promise<void> => {
  await presenceStore.updateUserFields(user.realmId, user.id, {
    email: user.email,
    isBot: user.isBot,
    isActive: user.isActive,
    dateJoined: user.dateJoined,
  });
};
