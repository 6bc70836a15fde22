// DELETE /invites/multiuse/{invite_id}
import { doRevokeMultiuseInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doRevokeMultiuseInvite(user, pathInt('invite_id'));
});
