// GET /user_groups/{user_group_id}/members/{user_id}
import { isUserGroupMember } from '../../lib/actions/groups/membership';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const isMember = isUserGroupMember.authorize(user);
  const groupId = pathInt('user_group_id');
  const userId = pathInt('user_id');
  const { direct_member_only } = params({ direct_member_only: json(bool).default(false) });
  return { is_user_group_member: await isMember(groupId, userId, direct_member_only) };
});
