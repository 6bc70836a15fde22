// DELETE /users/{user_id}: an administrator deactivates a user.
import { checkDeactivateUser } from '../../lib/actions/people/deactivation';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkDeactivateUser(user, realm, pathInt('user_id_or_email'));
});
