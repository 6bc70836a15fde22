// Reading one user by the path segment of /users/{user_id_or_email}: the users endpoints and
// presence name users the same way.
import type { User } from '../../models/user';
import * as messagesStore from '../../store/messages';

/** The access rules (lib/access) this domain's handlers call before its actions: a handler does not import lib/access. */
export { accessUserByIdOrEmail } from '../../access/users';

/** The highest message id the user has a row for, or -1 (GET /users/me's max_message_id). One query. */
export const maxMessageIdOfUser = async (user: User): Promise<number> => (await messagesStore.getNewestMessageIdOfUser(user.id)) ?? -1;
