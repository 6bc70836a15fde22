// POST /user_groups/create
import { checkCreateUserGroup } from '../../lib/actions/groups/manage';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';
import { groupSettingValue } from './params';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const createUserGroup = await checkCreateUserGroup.authorize(user, realm);
  const p = params({
    can_add_members_group: json(groupSettingValue).optional(),
    can_join_group: json(groupSettingValue).optional(),
    can_leave_group: json(groupSettingValue).optional(),
    can_manage_group: json(groupSettingValue).optional(),
    can_mention_group: json(groupSettingValue).optional(),
    can_remove_members_group: json(groupSettingValue).optional(),
    description: rawString(),
    members: json(list(int)),
    name: rawString(),
    subgroups: json(list(int)).optional(),
  });
  const { name, description, members, subgroups, ...settings } = p;
  const groupId = await createUserGroup({ name, description, members, subgroups, settings });
  return { group_id: groupId };
});
