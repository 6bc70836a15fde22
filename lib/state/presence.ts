// Register state for `presence` (presences, presence_last_update_id, server_timestamp) and the two
// presence settings that upstream sends with the `realm` section.
import { nowMs, nowSeconds } from '../clock';
import {
  isReportable,
  PRESENCE,
  toLegacyPresence,
  toModernPresence,
  type LegacyPresence,
  type ModernPresence,
  type Presence,
} from '../models/presence';
import type { Realm } from '../models/realm';
import * as presenceStore from '../store/presence';
import type { StateBuilder } from './registry';

export type PresenceQuery = {
  /** Modern format (keyed by user id) instead of legacy (keyed by email). */
  slim: boolean;
  /** The client's last seen update id; above 0 it replaces the time window. */
  lastUpdateId?: number;
  /** The window of the full fetch, in days (default 14; 0 wants no data). */
  historyLimitDays?: number;
};

export type PresenceResponse = {
  presences: Record<string, ModernPresence | LegacyPresence>;
  server_timestamp: number;
  presence_last_update_id: number;
};

/** The rows a query returns, before formatting: only the caller's organization, never bots or deactivated users. */
const fetchRows = async (realm: Realm, query: PresenceQuery): Promise<Presence[]> => {
  if (query.historyLimitDays === 0) return [];
  const { lastUpdateId } = query;
  if (lastUpdateId !== undefined && lastUpdateId > 0) {
    return (await presenceStore.listUpdatedAfter(realm.id, lastUpdateId)).filter(isReportable);
  }
  const days = query.historyLimitDays ?? PRESENCE.DEFAULT_HISTORY_LIMIT_DAYS;
  const rows = await presenceStore.listConnectedSince(realm.id, nowSeconds() - days * 86400);
  return rows.filter((p) => isReportable(p) && (lastUpdateId === undefined || p.lastUpdateId > lastUpdateId));
};

/**
 * The organization's presence data (upstream's get_presence_response): the rows changed after
 * `lastUpdateId` when it is above 0, else the rows connected within the window; the highest update
 * id returned, else the one passed, else -1. An organization with presence disabled has none.
 * Reads only; emits nothing.
 */
export const getPresenceResponse = async (realm: Realm, query: PresenceQuery): Promise<PresenceResponse> => {
  const serverTimestamp = nowMs() / 1000;
  if (realm.presenceDisabled) return { presences: {}, server_timestamp: serverTimestamp, presence_last_update_id: -1 };
  const rows = await fetchRows(realm, query);
  const presences = Object.fromEntries(
    rows.map((p) => (query.slim ? [String(p.userId), toModernPresence(p)] : [p.email, toLegacyPresence(p)])),
  ) as PresenceResponse['presences'];
  const lastUpdateId = rows.length > 0 ? Math.max(...rows.map((p) => p.lastUpdateId)) : (query.lastUpdateId ?? -1);
  return { presences, server_timestamp: serverTimestamp, presence_last_update_id: lastUpdateId };
};

export const presenceState: StateBuilder = async ({ realm, user, want, capabilities, options }) => {
  const state: Record<string, unknown> = {};
  if (want('presence')) {
    if (user) {
      // simplified_presence_events clients get the modern format here too, as upstream.
      const slim = options.slimPresence || capabilities.simplified_presence_events === true;
      const response = await getPresenceResponse(realm, { slim, historyLimitDays: options.presenceHistoryLimitDays });
      state.presences = response.presences;
      state.presence_last_update_id = response.presence_last_update_id;
    } else {
      state.presences = {};
    }
    state.server_timestamp = nowMs() / 1000;
  }
  if (want('realm')) {
    state.server_presence_ping_interval_seconds = PRESENCE.PING_INTERVAL_SECS;
    state.server_presence_offline_threshold_seconds = PRESENCE.OFFLINE_THRESHOLD_SECS;
  }
  return state;
};
