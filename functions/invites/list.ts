// GET /invites
import { listManageableInvites } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiEmailInvite, toApiInvite } from './link';

export const handler = apiHandler(async ({ user, event }) => {
  const { emailInvites, multiuseInvites } = await listManageableInvites(user);
  return {
    invites: [...emailInvites.map(toApiEmailInvite), ...multiuseInvites.map((invite) => toApiInvite(invite, event.headers))],
  };
});
