// PATCH /users/me/profile_data: sets (or, with a null value, removes) the caller's custom profile field values.
import { requireHumanUser } from '../../lib/access/roles';
import { checkUpdateProfileData, profileDataItem } from '../../lib/actions/custom-profile-data';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  requireHumanUser(user);
  const { data } = params({ data: json(list(profileDataItem)) });
  await checkUpdateProfileData(user, realm, data);
});
