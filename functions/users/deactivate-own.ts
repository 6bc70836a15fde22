// DELETE /users/me: a user deactivates their own account.
import { checkDeactivateOwnUser } from '../../lib/actions/people/deactivation';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm }) => {
  await checkDeactivateOwnUser(user, realm);
});
