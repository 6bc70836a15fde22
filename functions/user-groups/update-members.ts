// POST /user_groups/{user_group_id}/members: add or remove a group's members (and subgroups).
import { checkUpdateUserGroupMembership } from '../../lib/actions/groups/membership';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

const NOTHING_TO_DO = 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const updateMembership = checkUpdateUserGroupMembership.authorize(user);
  const groupId = pathInt('user_group_id');
  const p = params({
    add: json(list(int)).optional(),
    delete: json(list(int)).optional(),
    add_subgroups: json(list(int)).optional(),
    delete_subgroups: json(list(int)).optional(),
  });
  await updateMembership(
    realm,
    groupId,
    { add: p.add ?? [], delete: p.delete ?? [], addSubgroups: p.add_subgroups ?? [], deleteSubgroups: p.delete_subgroups ?? [] },
    NOTHING_TO_DO,
  );
});
