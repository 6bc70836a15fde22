// The signed-in person of a page request: the `sessionid` cookie's session, if it is unexpired,
// of the organization the request's host names, and its account and organization are active. A
// deactivated account or organization is signed out at its next request, whatever its sessions.
import { nowSeconds } from '../clock';
import { isSessionToken, sessionTokenHash } from '../models/session';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';
import * as sessionsStore from '../store/sessions';
import * as usersStore from '../store/users';

export type WebSession = { tokenHash: string; user: User; realm: Realm; expiresAt: number };

/**
 * The session `token` names at `realm` (the host's organization), or undefined. One read of the
 * session and one of the user; an expired session is no session (DynamoDB deletes expired items
 * late, DynamoDB Local never).
 */
export const sessionOf = async (token: string | undefined, realm: Realm | undefined): Promise<WebSession | undefined> => {
  if (!realm || realm.deactivated || !isSessionToken(token)) return undefined;
  const tokenHash = sessionTokenHash(token);
  const stored = await sessionsStore.getSession(tokenHash);
  if (!stored || stored.expiresAt <= nowSeconds() || stored.realmId !== realm.id) return undefined;
  const user = await usersStore.get(realm.id, stored.userId);
  if (!user || !user.isActive) return undefined;
  return { tokenHash, user, realm, expiresAt: stored.expiresAt };
};
