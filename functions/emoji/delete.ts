// DELETE /realm/emoji/{emoji_name}: deactivate the organization's custom emoji of that name.
import { checkRemoveRealmEmoji } from '../../lib/actions/organization/emoji';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathString }) => {
  await checkRemoveRealmEmoji(user, pathString('emoji_name'));
});
