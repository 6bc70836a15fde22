// POST /invites/{invite_id}/resend
import { accessEmailInvite, doResendEmailInvite } from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  const invite = await accessEmailInvite(user, pathInt('invite_id'));
  await doResendEmailInvite(realm, invite);
});
