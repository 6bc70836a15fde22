// POST /users/{user_id}/reactivate
import { checkReactivateUser } from '../../lib/actions/people/deactivation';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkReactivateUser(user, realm, pathInt('user_id_or_email'));
});
