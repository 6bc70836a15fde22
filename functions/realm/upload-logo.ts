// POST /realm/logo: an administrator uploads one image (multipart) as the organization's logo
// (`night`: the dark theme's).
import { checkUploadRealmLogo } from '../../lib/actions/organization/images';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, files }) => {
  const uploadLogo = checkUploadRealmLogo.authorize(user);
  const { night } = params({ night: json(bool) });
  await uploadLogo(realm, night, files);
  return {};
});
