// PATCH /user_groups/{user_group_id}
import { checkUpdateUserGroup } from '../../lib/actions/groups/manage';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';
import { settingChange } from './params';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const updateUserGroup = checkUpdateUserGroup.authorize(user);
  const groupId = pathInt('user_group_id');
  const { name, description, deactivated, ...settings } = params({
    can_add_members_group: json(settingChange).optional(),
    can_join_group: json(settingChange).optional(),
    can_leave_group: json(settingChange).optional(),
    can_manage_group: json(settingChange).optional(),
    can_mention_group: json(settingChange).optional(),
    can_remove_members_group: json(settingChange).optional(),
    deactivated: json(bool).optional(),
    description: rawString().optional(),
    name: rawString().optional(),
  });
  const given = Object.fromEntries(Object.entries(settings).filter(([, change]) => change !== undefined));
  await updateUserGroup(realm, groupId, { name, description, deactivated, settings: given });
});
