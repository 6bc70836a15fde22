// What an operator does without the web, as upstream's management commands (change_user_role,
// deactivate_user, reactivate_user, deactivate_realm, reactivate_realm, list_realms): the same
// actions and events as the API, without its permission checks (the operator has the database).
// Bad input is an OperatorError, whose message says what to do.
import { realmUrl, type Realm } from '../../models/realm';
import { INTERNAL_REALM_ID, Role, type User } from '../../models/user';
import { config } from '../../config';
import { BouncerRefusedError, BouncerRetryLaterError } from '../../store/push-bouncer';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { doChangeUserRole } from '../people/update';
import { doDeactivateUser, doReactivateUser } from '../people/deactivation';
import { isLastOwner } from '../../access/users';
import { doRegisterServerWithBouncer } from '../push/bouncer';
import { doSetRealmDeactivated } from './settings';

/** A refusal of an operator command, worded for the operator. */
export class OperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorError';
  }
}

/** Role names an operator types, as upstream's change_user_role command takes them. */
export const ROLE_NAMES: Record<string, Role> = {
  owner: Role.OWNER,
  admin: Role.ADMINISTRATOR,
  administrator: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

const roleName = (role: number): string => Object.entries(ROLE_NAMES).find(([, r]) => r === role)?.[0] ?? String(role);

/** The organization at this subdomain (string id), deactivated ones included. */
export const findRealm = async (stringId: string): Promise<Realm> => {
  const realm = await realmsStore.getByStringId(stringId);
  if (!realm) throw new OperatorError(`There is no organization with the subdomain "${stringId}" (npm run list-realms lists them).`);
  return realm;
};

/** The account with this email in the organization (any case), read consistently. */
export const findUser = async (realm: Realm, email: string): Promise<User> => {
  const found = await usersStore.getByEmail(realm.id, email.trim());
  const user = found && (await usersStore.get(realm.id, found.id, { consistent: true }));
  if (!user) throw new OperatorError(`There is no account "${email}" in the organization "${realm.stringId}".`);
  return user;
};

/**
 * Gives a user a role (doChangeUserRole: the same events as PATCH /users/{id}). Refuses an unknown
 * role name and taking the owner role from the organization's only owner. Returns what it did.
 */
export const operatorChangeRole = async (realm: Realm, user: User, roleText: string): Promise<string> => {
  const role = ROLE_NAMES[roleText.toLowerCase()];
  if (role === undefined) throw new OperatorError(`Unknown role "${roleText}": use one of ${Object.keys(ROLE_NAMES).join(', ')}.`);
  if (user.role === role) return `${user.email} is already ${roleName(role)} of ${realm.stringId}; nothing changed.`;
  if (role !== Role.OWNER && (await isLastOwner(user))) {
    throw new OperatorError(`${user.email} is the only owner of ${realm.stringId}: make someone else owner first.`);
  }
  await doChangeUserRole(realm, user, role);
  return `${user.email} is now ${roleName(role)} of ${realm.stringId} (was ${roleName(user.role)}).`;
};

/** Sets or revokes a user's can_create_users (POST /users), as upstream's change_user_role can_create_users. */
export const operatorSetCanCreateUsers = async (realm: Realm, user: User, allowed: boolean): Promise<string> => {
  if ((user.canCreateUsers === true) === allowed) {
    return `${user.email} ${allowed ? 'may already' : 'already may not'} create users in ${realm.stringId}; nothing changed.`;
  }
  await usersStore.update(realm.id, user.id, { canCreateUsers: allowed });
  return `${user.email} ${allowed ? 'may now' : 'may no longer'} create users in ${realm.stringId}.`;
};

/**
 * Deactivates a user (doDeactivateUser: their API key stops working, their bots are deactivated,
 * the organization is told). Refuses a deactivated user and the only owner.
 */
export const operatorDeactivateUser = async (realm: Realm, user: User): Promise<string> => {
  if (!user.isActive) throw new OperatorError(`${user.email} is already deactivated.`);
  if (await isLastOwner(user))
    throw new OperatorError(`${user.email} is the only owner of ${realm.stringId}: make someone else owner first.`);
  await doDeactivateUser(realm, user);
  return `Deactivated ${user.email} in ${realm.stringId}.`;
};

/** Reactivates a user (doReactivateUser). Refuses an active user. */
export const operatorReactivateUser = async (realm: Realm, user: User): Promise<string> => {
  if (user.isActive) throw new OperatorError(`${user.email} is already active.`);
  await doReactivateUser(realm, user);
  return `Reactivated ${user.email} in ${realm.stringId}.`;
};

/**
 * Deactivates or reactivates an organization: while deactivated, every API request of its users
 * is refused ("This organization has been deactivated", lib/http/auth.ts), event queues included.
 */
export const operatorSetRealmDeactivated = async (realm: Realm, deactivated: boolean): Promise<string> => {
  if (!(await doSetRealmDeactivated(realm.id, deactivated))) {
    throw new OperatorError(`The organization ${realm.stringId} is already ${deactivated ? 'deactivated' : 'active'}.`);
  }
  return `${deactivated ? 'Deactivated' : 'Reactivated'} the organization ${realm.stringId} (${realmUrl(realm)}).`;
};

/** One line per organization: id, subdomain, state, URL and name. */
export const operatorListRealms = async (): Promise<string[]> =>
  (await realmsStore.listAllForOperator()).map(
    (r) => `${r.id}\t${r.stringId}\t${r.deactivated ? 'deactivated' : 'active'}\t${realmUrl(r)}\t${r.name}`,
  );

/**
 * `npm run register-push-server` (upstream's `manage.py register_server`): registers this server
 * with the push notification service PUSH_BOUNCER_URL names, as ZULIP_ORG_ID with ZULIP_ORG_KEY,
 * and uploads every organization (the first push registration or notification does the same when
 * the bouncer does not know them yet). Refuses when push is not configured or the bouncer refuses.
 */
export const operatorRegisterPushServer = async (): Promise<string[]> => {
  const bouncer = config.pushBouncer();
  if (!bouncer) throw new OperatorError('Push notifications are not configured: set PUSH_BOUNCER_URL, ZULIP_ORG_ID and ZULIP_ORG_KEY.');
  const realms = (await realmsStore.listAllForOperator()).filter((r) => r.id !== INTERNAL_REALM_ID);
  try {
    await doRegisterServerWithBouncer(realms);
  } catch (error) {
    if (error instanceof BouncerRefusedError || error instanceof BouncerRetryLaterError)
      throw new OperatorError(`The push notification service at ${bouncer.url} refused: ${error.message}`);
    throw error;
  }
  return [`Registered this server as ${bouncer.orgId} with ${bouncer.url}, with ${realms.length} organizations.`];
};
