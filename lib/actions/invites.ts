// Reusable invitation links: listing, creation and revocation, with upstream's checks in
// upstream's order (zerver/views/invite.py, zerver/actions/invites.py).
import { nowSeconds } from '../clock';
import { accessChannelById } from '../access/channels';
import { requireMemberOrAdmin } from '../access/roles';
import { accessUserGroupForUpdate, hasRealmPermission, RealmGroups } from '../access/user-groups';
import { BadRequestError, UnauthorizedPrincipalError } from '../errors';
import { sendEvent } from '../events/send';
import { generateConfirmationKey, INVITE_AS, type MultiuseInvite } from '../models/invite';
import type { Realm } from '../models/realm';
import { isAdmin, isOwner, type User } from '../models/user';
import { allocateIds } from '../store/common';
import * as invitesStore from '../store/invites';
import { forMembers } from './requiring';

/** Upstream's INVITATION_LINK_VALIDITY_DAYS (10), in minutes: the default lifetime of a link. */
export const DEFAULT_INVITE_EXPIRES_IN_MINUTES = 10 * 24 * 60;
/** The longest lifetime upstream can compute (Python's timedelta ends at 999999999 days), in minutes. */
export const MAX_INVITE_EXPIRES_IN_MINUTES = 999999999 * 24 * 60;

const isExpired = (invite: MultiuseInvite, now: number): boolean => invite.expiryDate !== null && invite.expiryDate < now;

/**
 * Upstream's check_role_based_permissions: an owner invitation needs an owner ("Must be an
 * organization owner", UNAUTHORIZED_PRINCIPAL); with `requireAdmin`, anyone else needs an
 * administrator ("Must be an organization administrator", a plain BAD_REQUEST there).
 */
const checkRoleBasedPermissions = (invitedAs: number, user: User, opts: { requireAdmin: boolean }): void => {
  if (invitedAs === INVITE_AS.REALM_OWNER && !isOwner(user)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  if (opts.requireAdmin && !isAdmin(user)) throw new BadRequestError('Must be an organization administrator');
};

/** The organization's administrators (the role:administrators system group, owners included). */
const administratorIds = async (realmId: number): Promise<number[]> => {
  const groups = await RealmGroups.load(realmId);
  const admins = groups.systemGroup('role:administrators');
  const ids = new Set<number>();
  const collect = (groupId: number, seen: Set<number>): void => {
    if (seen.has(groupId)) return;
    seen.add(groupId);
    const group = groups.byId.get(groupId);
    group?.members.forEach((id) => ids.add(id));
    group?.directSubgroupIds.forEach((sub) => collect(sub, seen));
  };
  collect(admins.id, new Set());
  return [...ids];
};

/** Upstream's notify_invites_changed: `invites_changed` to the administrators and the link's creator. */
const notifyInvitesChanged = async (realmId: number, referrerId: number): Promise<void> => {
  const recipients = new Set([...(await administratorIds(realmId)), referrerId]);
  await sendEvent(realmId, { type: 'invites_changed' }, { users: [...recipients].sort((a, b) => a - b) });
};

/**
 * GET /invites: the unexpired, unrevoked links the caller can manage: every link of the
 * organization for an administrator, the caller's own links otherwise. Guests and bots are refused.
 */
export const listManageableInvites = async (user: User): Promise<MultiuseInvite[]> => {
  requireMemberOrAdmin(user);
  const now = nowSeconds();
  return (await invitesStore.listInvitesOfRealm(user.realmId))
    .filter((invite) => invite.status === 'active' && !isExpired(invite, now))
    .filter((invite) => isAdmin(user) || invite.referredBy === user.id)
    .sort((a, b) => a.id - b.id);
};

export type CreateInviteRequest = {
  invitedAs: number;
  expiresInMinutes: number | null;
  streamIds: number[];
  /** Groups the new user joins on accepting the invitation. */
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
};

/**
 * Upstream's access_user_groups_for_invite: each group is an active, non-system group of the
 * organization that the caller may add members to ("Invalid user group", "User group is
 * deactivated.", "Insufficient permission").
 */
const checkInviteGroups = (user: User, realm: Realm, groups: RealmGroups, groupIds: number[]): void => {
  for (const id of groupIds)
    accessUserGroupForUpdate(realm, groups, user, id, { allowDeactivated: false, permission: 'can_add_members_group' });
};

/** Upstream's access_streams_for_invite: channels the caller can see and add subscribers to. */
const checkInviteChannels = async (user: User, realm: Realm, groups: RealmGroups, streamIds: number[]): Promise<void> => {
  const channels = [];
  // Each distinct id once, in order (the first bad one is the error): a list that repeats one id
  // 50,000 times costs one read, not 50,000.
  for (const id of new Set(streamIds)) channels.push(await accessChannelById(user, id, `Invalid channel ID ${id}. No invites were sent.`));
  if (isAdmin(user)) return;
  const mayAdd = (value: Parameters<RealmGroups['isInSetting']>[0]) => groups.hasPermission(user, value, false);
  if (channels.some((c) => !mayAdd(c.groupSettings.can_add_subscribers_group) && !mayAdd(realm.groupSettings.can_add_subscribers_group))) {
    throw new BadRequestError('You do not have permission to subscribe other users to channels.');
  }
};

/**
 * POST /invites/multiuse. Checks, in upstream's order: a member or administrator, allowed by the
 * organization's can_create_multiuse_invite_group ("Insufficient permission"), the role it grants
 * (owners only by owners; administrators and moderators only by administrators), the channels,
 * the groups. Writes the link (with its own key, its channels and groups) and emits
 * invites_changed to the administrators and the creator.
 */
export const checkCreateMultiuseInvite = forMembers(
  async (user: User, realm: Realm, request: CreateInviteRequest): Promise<MultiuseInvite> => {
    const groups = await RealmGroups.load(realm.id);
    if (!hasRealmPermission(realm, groups, user, 'can_create_multiuse_invite_group')) throw new BadRequestError('Insufficient permission');
    const requireAdmin = ([INVITE_AS.REALM_OWNER, INVITE_AS.REALM_ADMIN, INVITE_AS.MODERATOR] as number[]).includes(request.invitedAs);
    checkRoleBasedPermissions(request.invitedAs, user, { requireAdmin });
    await checkInviteChannels(user, realm, groups, request.streamIds);
    checkInviteGroups(user, realm, groups, request.groupIds);

    const now = nowSeconds();
    const invite: MultiuseInvite = {
      id: await allocateIds('multiuseInvite'),
      realmId: realm.id,
      referredBy: user.id,
      invitedAs: request.invitedAs,
      streamIds: [...new Set(request.streamIds)],
      groupIds: [...new Set(request.groupIds)],
      dateCreated: now,
      expiryDate: request.expiresInMinutes === null ? null : now + request.expiresInMinutes * 60,
      status: 'active',
      confirmationKey: generateConfirmationKey(),
      includeRealmDefaultSubscriptions: request.includeRealmDefaultSubscriptions,
    };
    await invitesStore.putInvite(invite);
    await notifyInvitesChanged(realm.id, user.id);
    return invite;
  },
);

/**
 * Upstream's access_multiuse_invite_by_id, in its order: the link exists in the caller's
 * organization ("No such invitation"), the caller created it or may manage it (role-based
 * permissions with an administrator required), and it is not revoked ("Invitation has already
 * been revoked"). Guests and bots are refused first.
 */
export const accessMultiuseInvite = async (user: User, inviteId: number): Promise<MultiuseInvite> => {
  requireMemberOrAdmin(user);
  const invite = await invitesStore.getInvite(user.realmId, inviteId, { consistent: true });
  if (!invite) throw new BadRequestError('No such invitation');
  if (invite.referredBy !== user.id) checkRoleBasedPermissions(invite.invitedAs, user, { requireAdmin: true });
  if (invite.status === 'revoked') throw new BadRequestError('Invitation has already been revoked');
  return invite;
};

/**
 * Revokes an accessed link: a conditional update from active to revoked that keeps the row (the
 * loser of two concurrent revocations gets "Invitation has already been revoked"). Emits
 * invites_changed to the administrators and the link's creator.
 */
export const doRevokeMultiuseInvite = async (invite: MultiuseInvite): Promise<void> => {
  if (!(await invitesStore.revokeInvite(invite.realmId, invite.id))) throw new BadRequestError('Invitation has already been revoked');
  await notifyInvitesChanged(invite.realmId, invite.referredBy);
};
