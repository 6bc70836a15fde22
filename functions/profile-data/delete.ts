// DELETE /users/me/profile_data: removes the caller's values of the listed custom profile fields.
import { checkRemoveProfileData } from '../../lib/actions/people/profile-data';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const removeProfileData = checkRemoveProfileData.authorize(user);
  const { data } = params({ data: json(list(int)) });
  await removeProfileData(realm, data);
});
