// GET /realm/presence: the organization's presence in the legacy format (bots may call it).
import { apiHandler } from '../../lib/http/api-handler';
import { getPresenceResponse } from '../../lib/state/presence';

export const handler = apiHandler(async ({ realm }) => {
  const { presences, server_timestamp } = await getPresenceResponse(realm, { slim: false });
  return { presences, server_timestamp };
});
