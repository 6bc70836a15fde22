// GET /invites
import { listManageableInvites } from '../../lib/actions/invites';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiInvite } from './link';

export const handler = apiHandler(async ({ user, event }) => {
  const invites = await listManageableInvites(user);
  return { invites: invites.map((invite) => toApiInvite(invite, event.headers)) };
});
