// DELETE /users/me/avatar: back to the Gravatar; answers its URL.
import { deleteAvatar } from '../../lib/actions/uploads/avatars';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ avatar_url: await deleteAvatar(user) }));
