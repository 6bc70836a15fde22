// POST /realm/icon: an administrator uploads one image (multipart) as the organization's icon; answers its URL.
import { checkUploadRealmIcon } from '../../lib/actions/organization/images';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, files }) => {
  const uploadIcon = checkUploadRealmIcon.authorize(user);
  return { icon_url: await uploadIcon(realm, files) };
});
