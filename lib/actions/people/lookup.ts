// Reading one user by the path segment of /users/{user_id_or_email}: the users endpoints and
// presence name users the same way.
import { BadRequestError } from '../../errors';
import { dummyUserEmail, type Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as messagesStore from '../../store/messages';
import * as usersStore from '../../store/users';

const ID = /^\s*[-+]?\d+\s*$/;

/** Whether a path segment naming a user is an id (else it is an email), as upstream's int() decides. */
export const isUserIdText = (userIdOrEmail: string): boolean => ID.test(userIdOrEmail);
const DUMMY_EMAIL = /^user(\d+)@/i;

/**
 * The user of this organization that a path segment names: an id, an email (any case), or the
 * placeholder address user{id}@{host} that inaccessible users are shown with. Deactivated users
 * and bots included; undefined when there is none here. One read (two for an unknown email).
 */
export const findUserByIdOrEmail = async (realm: Realm, userIdOrEmail: string): Promise<User | undefined> => {
  if (isUserIdText(userIdOrEmail)) {
    const user = await usersStore.get(realm.id, Number(userIdOrEmail));
    return user?.realmId === realm.id ? user : undefined;
  }
  const email = userIdOrEmail.trim();
  const byEmail = await usersStore.getByEmail(realm.id, email);
  if (byEmail) return byEmail;
  const dummy = DUMMY_EMAIL.exec(email);
  if (dummy && email.toLowerCase() === dummyUserEmail(realm, Number(dummy[1])).toLowerCase()) {
    const user = await usersStore.get(realm.id, Number(dummy[1]));
    return user?.realmId === realm.id ? user : undefined;
  }
  return undefined;
};

/** GET /users/{user_id} and /users/{email}: the user, or "No such user". Reads only. */
export const accessUserByIdOrEmail = async (realm: Realm, userIdOrEmail: string): Promise<User> => {
  const user = await findUserByIdOrEmail(realm, userIdOrEmail);
  if (!user) throw new BadRequestError('No such user');
  return user;
};

/** The highest message id the user has a row for, or -1 (GET /users/me's max_message_id). One query. */
export const maxMessageIdOfUser = async (user: User): Promise<number> => (await messagesStore.getNewestMessageIdOfUser(user.id)) ?? -1;
