// GET /user_avatars/{realm_id_str}/emoji/images/{filename} (at the site root): a custom emoji's
// image, without authentication, as upstream serves them (their names are random).
import { readEmojiImage } from '../../lib/actions/organization/emoji';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { fileResponse } from '../../lib/http/response';

export const handler = publicApiHandler(async ({ pathString }) => {
  const filename = pathString('filename');
  const file = await readEmojiImage(`${pathString('realm_id_str')}/emoji/images/${filename}`);
  return new RawResponse(fileResponse({ name: filename, contentType: file.contentType }, file.body));
});
