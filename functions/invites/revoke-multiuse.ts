// DELETE /invites/multiuse/{invite_id}
import { accessMultiuseInvite, doRevokeMultiuseInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const invite = await accessMultiuseInvite(user, pathInt('invite_id'));
  await doRevokeMultiuseInvite(invite);
});
