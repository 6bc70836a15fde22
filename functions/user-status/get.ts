// GET /users/{user_id}/status
import { getUserStatus } from '../../lib/actions/people/status';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => ({ status: await getUserStatus(realm, user, pathInt('user_id')) }));
