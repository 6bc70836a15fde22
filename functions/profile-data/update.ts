// PATCH /users/me/profile_data: sets (or, with a null value, removes) the caller's custom profile field values.
import { checkUpdateProfileData, profileDataItem } from '../../lib/actions/people/profile-data';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const updateProfileData = checkUpdateProfileData.authorize(user);
  const { data } = params({ data: json(list(profileDataItem)) });
  await updateProfileData(realm, data);
});
