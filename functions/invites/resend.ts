// POST /invites/{invite_id}/resend
import { doResendEmailInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await doResendEmailInvite(user, realm, pathInt('invite_id'));
});
