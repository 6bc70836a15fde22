// POST /users: an administrator with can_create_users creates an account.
import { checkCreateUser } from '../../lib/actions/people/create';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const createUser = checkCreateUser.authorize(user);
  const p = params({ email: rawString(), password: rawString(), full_name: rawString() });
  return { user_id: await createUser(realm, { email: p.email, password: p.password, fullName: p.full_name }) };
});
