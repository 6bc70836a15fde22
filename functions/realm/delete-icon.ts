// DELETE /realm/icon: an administrator puts the organization's icon back to its Gravatar; answers its URL.
import { doDeleteRealmIcon } from '../../lib/actions/organization/images';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm }) => {
  const deleteIcon = doDeleteRealmIcon.authorize(user);
  return { icon_url: await deleteIcon(realm) };
});
