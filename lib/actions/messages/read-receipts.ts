// GET /messages/{message_id}/read_receipts: who has read a message.
// Upstream: zerver/views/read_receipts.py.
import { accessMessage, rowHolderCandidates } from '../../access/messages';
import { BadRequestError } from '../../errors';
import { readReceiptsEnabled, type Realm } from '../../models/realm';
import { mutersOf } from '../../models/muted-user';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { getRowsOfMessage } from '../../store/messages';
import * as mutedUsersStore from '../../store/muted-users';
import * as usersStore from '../../store/users';

/**
 * The ids of the users who hold a row of the message flagged `read` (historical rows included, as
 * upstream does not filter on that flag), ascending, leaving out the sender (who wrote it), users
 * who turned `send_read_receipts` off, deactivated users, users the caller muted and users who
 * muted the caller (who read everything the caller sends at once, which would tell the caller of
 * the mute); bots are included. Checks first that the caller may see the message (accessMessage:
 * "Invalid message(s)"), then that the organization has read receipts on. Reads the message's
 * recipients record, those users' rows of it, the caller's mutes and the users who read it (the
 * caller's muters are on the caller's own item); writes nothing.
 */
export const listReadReceipts = async (realm: Realm, user: User, messageId: number): Promise<number[]> => {
  const { message } = await accessMessage(user, messageId, { modifying: false });
  if (!readReceiptsEnabled(realm)) throw new BadRequestError('Read receipts are disabled in this organization.');
  const [rows, mutes] = await Promise.all([
    rowHolderCandidates(message).then((candidates) => getRowsOfMessage(message.id, candidates)),
    mutedUsersStore.listMutedUsersOfUser(user.id),
  ]);
  const hidden = new Set([...mutersOf(user), ...mutes.map((m) => m.mutedUserId)]);
  const readers = rows
    .filter((row) => row.userId !== message.senderId && !hidden.has(row.userId) && row.flags.includes('read'))
    .map((row) => row.userId);
  if (readers.length === 0) return [];
  const shown = new Set(
    (await usersStore.getMany(realm.id, readers)).filter((u) => u.isActive && settingsOfUser(u).send_read_receipts).map((u) => u.id),
  );
  return readers.filter((id) => shown.has(id));
};
