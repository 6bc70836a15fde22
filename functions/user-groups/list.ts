// GET /user_groups
import { listUserGroups } from '../../lib/actions/groups/manage';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const listGroups = listUserGroups.authorize(user);
  const { include_deactivated_groups } = params({ include_deactivated_groups: json(bool).default(false) });
  return { user_groups: await listGroups({ includeDeactivated: include_deactivated_groups }) };
});
