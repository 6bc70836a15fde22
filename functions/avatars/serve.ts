// GET /user_avatars/{realm_id_str}/{filename} (at the site root): an uploaded avatar's image,
// without authentication, as upstream serves avatars (their addresses are unguessable hashes).
import { readAvatarFile } from '../../lib/actions/uploads/avatars';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { fileResponse } from '../../lib/http/response';

export const handler = publicApiHandler(async ({ pathString }) => {
  const filename = pathString('filename');
  const file = await readAvatarFile(`${pathString('realm_id_str')}/${filename}`);
  return new RawResponse(fileResponse({ name: filename, contentType: file.contentType }, file.body));
});
