// DELETE /invites/{invite_id}
import { doRevokeEmailInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doRevokeEmailInvite(user, pathInt('invite_id'));
});
