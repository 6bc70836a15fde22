// DELETE /invites/{invite_id}
import { accessEmailInvite, doRevokeEmailInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const invite = await accessEmailInvite(user, pathInt('invite_id'));
  await doRevokeEmailInvite(invite);
});
