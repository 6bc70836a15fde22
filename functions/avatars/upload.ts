// POST /users/me/avatar: upload one image (multipart) as one's avatar; answers its URL.
import { checkUploadAvatar } from '../../lib/actions/uploads/avatars';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, files }) => ({ avatar_url: await checkUploadAvatar(user, files) }));
