// GET /user_groups/{user_group_id}/subgroups
import { getUserGroupSubgroups } from '../../lib/actions/groups/membership';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const getSubgroups = getUserGroupSubgroups.authorize(user);
  const groupId = pathInt('user_group_id');
  const { direct_subgroup_only } = params({ direct_subgroup_only: json(bool).default(false) });
  return { subgroups: await getSubgroups(groupId, direct_subgroup_only) };
});
