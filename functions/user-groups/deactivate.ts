// POST /user_groups/{user_group_id}/deactivate
import { checkDeactivateUserGroup } from '../../lib/actions/groups/manage';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathInt }) => {
  await checkDeactivateUserGroup(user, realm, pathInt('user_group_id'));
});
