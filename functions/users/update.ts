// PATCH /users/{user_id}: an administrator changes a user's name, role or profile data.
import { profileDataItem } from '../../lib/actions/people/profile-data';
import { checkUpdateUser } from '../../lib/actions/people/update';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { ROLE_VALUES } from '../../lib/models/user';
import { intIn, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const p = params({
    full_name: rawString().optional(),
    role: json(intIn(ROLE_VALUES)).optional(),
    profile_data: json(list(profileDataItem)).optional(),
  });
  await checkUpdateUser(user, realm, pathInt('user_id_or_email'), { fullName: p.full_name, role: p.role, profileData: p.profile_data });
});
