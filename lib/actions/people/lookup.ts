// Reading one user by the path segment of /users/{user_id_or_email}: the users endpoints and
// presence name users the same way.
import { accessUserByIdOrEmail } from '../../access/users';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as messagesStore from '../../store/messages';

/**
 * GET /users/{user_id} and /users/{email}: the user of the caller's organization the path names
 * (accessUserByIdOrEmail: else "No such user"). Reads only.
 */
export const lookUpUser = (realm: Realm, userIdOrEmail: string): Promise<User> => accessUserByIdOrEmail(realm, userIdOrEmail);

/** The highest message id the user has a row for, or -1 (GET /users/me's max_message_id). One query. */
export const maxMessageIdOfUser = async (user: User): Promise<number> => (await messagesStore.getNewestMessageIdOfUser(user.id)) ?? -1;
