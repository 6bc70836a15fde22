// GET /user_groups/{user_group_id}/members
import { getUserGroupMembers } from '../../lib/actions/groups/membership';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const getMembers = getUserGroupMembers.authorize(user);
  const groupId = pathInt('user_group_id');
  const { direct_member_only } = params({ direct_member_only: json(bool).default(false) });
  return { members: await getMembers(groupId, direct_member_only) };
});
