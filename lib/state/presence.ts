// Register state for `presence` (presences, presence_last_update_id, server_timestamp) and the two
// presence settings that upstream sends with the `realm` section.
import { getPresenceResponse } from '../actions/presence';
import { nowMs } from '../clock';
import { PRESENCE } from '../models/presence';
import type { StateBuilder } from './registry';

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
