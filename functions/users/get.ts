// GET /users/{user_id} and GET /users/{email}: one user, as register's realm_users shapes it.
import { lookUpUser } from '../../lib/actions/people/lookup';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';
import { userObject, userReadContext } from '../../lib/state/realm-user';

export const handler = apiHandler(async ({ realm, user, params, pathString }) => {
  const p = params({
    client_gravatar: json(bool).default(true),
    include_custom_profile_fields: json(bool).default(false),
  });
  const target = await lookUpUser(realm, pathString('user_id_or_email'));
  const opts = { clientGravatar: p.client_gravatar, includeProfileData: p.include_custom_profile_fields };
  return { user: await userObject(userReadContext(realm, user), target, opts) };
});
