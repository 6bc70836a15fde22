// Muting and unmuting users: POST and DELETE /users/me/muted_users/{muted_user_id}. Upstream:
// zerver/views/muted_users.py, zerver/actions/muted_users.py.
import { nowSeconds } from '../../clock';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { MutedUsersEvent } from '../../models/event';
import { MAX_MUTED_USERS, MAX_MUTERS, apiMutedUser } from '../../models/muted-user';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import * as mutedUsersStore from '../../store/muted-users';
import { accessUserToMute } from '../../access/users';
import { markMutedUserMessagesAsRead } from '../messages/flags';
import { LostRaceError, retryLostRaces } from '../retry';

/** Sends the user's clients their whole list of muted users, read consistently after the change. */
const notifyMutedUsers = async (user: User): Promise<void> => {
  const mutes = await mutedUsersStore.listMutedUsersOfUser(user.id, { consistent: true });
  const event: MutedUsersEvent = { type: 'muted_users', muted_users: mutes.map(apiMutedUser) };
  await sendEvent(user.realmId, event, { users: [user.id] });
};

/**
 * Mutes a user for the caller. Checks, in upstream's order: not the caller ("Cannot mute self"),
 * then the user (accessUserToMute; bots and deactivated users may be muted), then not muted yet
 * ("User already muted"), then this service's caps (MAX_MUTED_USERS mutes per user, MAX_MUTERS
 * muters per user). Writes the mute, the caller's count and the muted user's `mutedBy` in one
 * transaction, stamped now. Then marks the muted user's unread messages to the caller read (an
 * `update_message_flags` event when any changed) and sends the caller's clients `muted_users`.
 */
export const checkMuteUser = async (realm: Realm, user: User, mutedUserId: number): Promise<void> => {
  if (mutedUserId === user.id) throw new BadRequestError('Cannot mute self');
  const target = await accessUserToMute(realm, user, mutedUserId);
  const mutedAt = nowSeconds();
  const outcome = await retryLostRaces(async () => {
    const result = await mutedUsersStore.createMute(realm.id, { userId: user.id, mutedUserId: target.id, mutedAt });
    if (result === 'conflict') throw new LostRaceError();
    return result;
  });
  if (outcome === 'already') throw new BadRequestError('User already muted');
  if (outcome === 'muterFull') throw new BadRequestError(`You cannot mute more than ${MAX_MUTED_USERS} users.`);
  if (outcome === 'mutedFull') throw new BadRequestError(`This user cannot be muted by more than ${MAX_MUTERS} users.`);
  await markMutedUserMessagesAsRead(user, target.id);
  await notifyMutedUsers(user);
};

/**
 * Unmutes a user for the caller. Checks the user (accessUserToMute: "No such user", "Insufficient
 * permission"), then that the caller has muted them ("User is not muted"; also for the caller
 * themselves). Removes the mute, the caller's count and the caller from the user's `mutedBy` in one
 * transaction, then sends the caller's clients `muted_users`. Messages stay as they are.
 */
export const checkUnmuteUser = async (realm: Realm, user: User, mutedUserId: number): Promise<void> => {
  const target = await accessUserToMute(realm, user, mutedUserId);
  // Nobody can have muted themselves (and one transaction cannot write the same user item twice).
  if (target.id === user.id) throw new BadRequestError('User is not muted');
  const outcome = await retryLostRaces(async () => {
    const result = await mutedUsersStore.deleteMute(realm.id, user.id, target.id);
    if (result === 'conflict') throw new LostRaceError();
    return result;
  });
  if (outcome === 'notMuted') throw new BadRequestError('User is not muted');
  await notifyMutedUsers(user);
};
