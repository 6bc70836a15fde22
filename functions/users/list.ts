// GET /users: the organization's users, as register's realm_users shapes them.
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool, int, list } from '../../lib/validation/validators';
import { listUserObjects, userReadContext } from '../../lib/state/realm-user';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({
    client_gravatar: json(bool).default(true),
    include_custom_profile_fields: json(bool).default(false),
    user_ids: json(list(int)).optional(),
  });
  const members = await listUserObjects(userReadContext(realm, user), {
    clientGravatar: p.client_gravatar,
    includeProfileData: p.include_custom_profile_fields,
    userIds: p.user_ids,
  });
  return { members };
});
