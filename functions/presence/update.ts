// POST /users/me/presence: report the caller's status and, unless ping_only, read the organization's presence.
import { checkPresenceStatus, doUpdateUserPresence } from '../../lib/actions/people/presence';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { getPresenceResponse } from '../../lib/state/presence';
import { bool, int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const updatePresence = doUpdateUserPresence.authorize(user);
  const p = params({
    history_limit_days: json(int).optional(),
    last_update_id: json(int).optional(),
    // Upstream feeds usage statistics with it; this service keeps none, so it is read and unused.
    new_user_input: json(bool).default(false),
    ping_only: json(bool).default(false),
    slim_presence: json(bool).default(false),
    status: rawString(),
  });
  const status = checkPresenceStatus(p.status);
  await updatePresence(realm, status);
  if (p.ping_only) return {};
  // Passing last_update_id at all (even -1) asks for the modern format.
  const slim = p.slim_presence || p.last_update_id !== undefined;
  return getPresenceResponse(realm, { slim, lastUpdateId: p.last_update_id, historyLimitDays: p.history_limit_days });
});
