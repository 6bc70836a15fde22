// GET /messages/{message_id}/read_receipts: who has read a message.
// Upstream: zerver/views/read_receipts.py.
import { accessMessage, rowHolderCandidates } from '../access/messages';
import { BadRequestError } from '../errors';
import { readReceiptsEnabled, type Realm } from '../models/realm';
import type { User } from '../models/user';
import { settingsOfUser } from '../models/user-settings';
import { getRowsOfMessage } from '../store/messages';
import * as usersStore from '../store/users';

/**
 * The ids of the users who hold a row of the message flagged `read` (historical rows included, as
 * upstream does not filter on that flag), ascending, leaving out the sender (who wrote it), users
 * who turned `send_read_receipts` off, and deactivated users; bots are included. Checks first that
 * the caller may see the message (accessMessage: "Invalid message(s)"), then that the organization
 * has read receipts on. Reads the message's recipients record, those users' rows of it and the
 * users who read it; writes nothing.
 *
 * Upstream also leaves out users the caller muted and users who muted the caller; this service
 * has no user muting yet (register's `muted_users` is always empty), so there is no one to leave out.
 */
export const listReadReceipts = async (realm: Realm, user: User, messageId: number): Promise<number[]> => {
  const { message } = await accessMessage(user, messageId, { modifying: false });
  if (!readReceiptsEnabled(realm)) throw new BadRequestError('Read receipts are disabled in this organization.');
  const rows = await getRowsOfMessage(message.id, await rowHolderCandidates(message));
  const readers = rows.filter((row) => row.userId !== message.senderId && row.flags.includes('read')).map((row) => row.userId);
  if (readers.length === 0) return [];
  const shown = new Set(
    (await usersStore.getMany(realm.id, readers)).filter((u) => u.isActive && settingsOfUser(u).send_read_receipts).map((u) => u.id),
  );
  return readers.filter((id) => shown.has(id));
};
