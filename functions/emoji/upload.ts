// POST /realm/emoji/{emoji_name}: upload one image (multipart) as a custom emoji of that name.
import { checkAddRealmEmoji } from '../../lib/actions/organization/emoji';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm, pathString, files }) => {
  const addRealmEmoji = checkAddRealmEmoji.authorize(user);
  await addRealmEmoji(realm, pathString('emoji_name'), files);
});
