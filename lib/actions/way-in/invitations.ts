// Reusable invitation links: listing, creation and revocation, with upstream's checks in
// upstream's order (zerver/views/invite.py, zerver/actions/invites.py).
import { nowSeconds } from '../../clock';
import { accessChannelById } from '../../access/channels';
import { requireMemberOrAdmin } from '../../access/roles';
import { accessUserGroupForUpdate, hasRealmPermission, RealmGroups } from '../../access/user-groups';
import { config } from '../../config';
import { BadRequestError, InvitationError, type InvitationSkip } from '../../errors';
import { sendEvent } from '../../events/send';
import {
  generateConfirmationKey,
  INVITE_AS,
  invitationEmail,
  isValidEmailAddress,
  parseInviteeEmails,
  type EmailInvite,
  type MultiuseInvite,
} from '../../models/invite';
import { realmUrl, type Realm } from '../../models/realm';
import { INTERNAL_REALM_ID, isAdmin, type User } from '../../models/user';
import { allocateIds } from '../../store/common';
import { sendEmail } from '../../store/emails';
import * as invitesStore from '../../store/invites';
import { MAX_ORGANIZATION_PENDING_INVITATIONS } from '../../store/limits';
import * as usersStore from '../../store/users';
import { forMembers } from '../requiring';
import { accessEmailInvite, accessMultiuseInvite, checkRoleBasedPermissions } from '../../access/way-in';

/** Upstream's INVITATION_LINK_VALIDITY_DAYS (10), in minutes: the default lifetime of a link. */
export const DEFAULT_INVITE_EXPIRES_IN_MINUTES = 10 * 24 * 60;
/** The longest lifetime upstream can compute (Python's timedelta ends at 999999999 days), in minutes. */
export const MAX_INVITE_EXPIRES_IN_MINUTES = 999999999 * 24 * 60;

const isExpired = (invite: MultiuseInvite, now: number): boolean => invite.expiryDate !== null && invite.expiryDate < now;

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
const notifyInvitesChanged = async (realmId: number, referrerId: number | null): Promise<void> => {
  const recipients = new Set([...(await administratorIds(realmId)), ...(referrerId === null ? [] : [referrerId])]);
  await sendEvent(realmId, { type: 'invites_changed' }, { users: [...recipients].sort((a, b) => a - b) });
};

/** An email invitation whose link works no more: expired, or used (upstream lists only active ones). */
const isEmailInviteExpired = (invite: EmailInvite, now: number): boolean =>
  invite.status === 'used' || (invite.expiryDate !== null && invite.expiryDate < now);

/**
 * GET /invites (upstream's do_get_invites_controlled_by_user): the unexpired email invitations and
 * the unexpired, unrevoked links the caller can manage: every one of the organization for an
 * administrator, the caller's own otherwise. Guests and bots are refused.
 */
export const listManageableInvites = async (user: User): Promise<{ emailInvites: EmailInvite[]; multiuseInvites: MultiuseInvite[] }> => {
  requireMemberOrAdmin(user);
  const now = nowSeconds();
  const [emailInvites, multiuseInvites] = await Promise.all([
    invitesStore.listEmailInvitesOfRealm(user.realmId),
    invitesStore.listInvitesOfRealm(user.realmId),
  ]);
  const manageable = (invite: { referredBy: number | null }) =>
    invite.referredBy !== null && (isAdmin(user) || invite.referredBy === user.id);
  return {
    emailInvites: emailInvites.filter((invite) => !isEmailInviteExpired(invite, now) && manageable(invite)).sort((a, b) => a.id - b.id),
    multiuseInvites: multiuseInvites
      .filter((invite) => invite.status === 'active' && !isExpired(invite, now) && manageable(invite))
      .sort((a, b) => a.id - b.id),
  };
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
    if (!hasRealmPermission(realm, groups, user, 'create_multiuse_invite_group')) throw new BadRequestError('Insufficient permission');
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
 * DELETE /invites/multiuse/{id}: a link the caller may manage (accessMultiuseInvite), revoked by a
 * conditional update from active to revoked that keeps the row (the loser of two concurrent
 * revocations gets "Invitation has already been revoked"). Emits invites_changed to the
 * administrators and the link's creator.
 */
export const doRevokeMultiuseInvite = async (user: User, inviteId: number): Promise<void> => {
  const invite = await accessMultiuseInvite(user, inviteId);
  if (!(await invitesStore.revokeInvite(invite.realmId, invite.id))) throw new BadRequestError('Invitation has already been revoked');
  await notifyInvitesChanged(invite.realmId, invite.referredBy);
};

const DAILY_LIMIT_MESSAGE =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

const dailyLimitError = (): InvitationError =>
  new InvitationError(DAILY_LIMIT_MESSAGE, [], { sentInvitations: false, dailyLimitReached: true });

/** Upstream's check_invite_limit, as a check only: would `count` more emails pass the organization's day? */
const checkInviteLimit = async (realmId: number, count: number, now: number): Promise<void> => {
  if ((await invitesStore.getInvitesSentOnDay(realmId, now)) + count > config.invitesDailyMax()) throw dailyLimitError();
};

/** Counts `count` emails against the day (re-checking the limit in the write) or refuses with the daily-limit error. */
const countInviteEmails = async (realmId: number, count: number, now: number): Promise<void> => {
  if (count > 0 && !(await invitesStore.countInvitesSent(realmId, now, count, config.invitesDailyMax()))) throw dailyLimitError();
};

/**
 * Upstream's get_existing_user_errors for one address: a system bot's address, an account of the
 * organization (active: "Already has an account.", deactivated: "Account has been deactivated."),
 * or nothing for an address free to invite.
 */
const existingUserError = async (realmId: number, email: string): Promise<InvitationSkip | undefined> => {
  const accounts = await usersStore.listByEmail(email);
  if (accounts.some((u) => u.realmId === INTERNAL_REALM_ID)) return [email, 'Reserved for system bots.', false];
  const account = accounts.find((u) => u.realmId === realmId);
  if (!account) return undefined;
  return account.isActive ? [email, 'Already has an account.', false] : [email, 'Account has been deactivated.', true];
};

/** The /join/<key>/ link of an email invitation, at the organization's own URL. */
const emailInviteLink = (realm: Realm, invite: EmailInvite): string => `${realmUrl(realm)}/join/${invite.confirmationKey}/`;

/** Upstream's do_send_user_invite_email, without the count: the invitation email, sent through SES. */
const sendInvitationEmail = async (realm: Realm, referrer: User, invite: EmailInvite): Promise<void> => {
  const content = invitationEmail({
    referrerName: referrer.fullName,
    referrerEmail: referrer.email,
    realmName: realm.name,
    joinUrl: emailInviteLink(realm, invite),
  });
  await sendEmail({ to: [invite.email], ...content });
};

export type EmailInviteRequest = CreateInviteRequest & {
  /** invitee_emails as sent: addresses separated by commas or newlines. */
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
};

/**
 * POST /invites (upstream's invite_users_backend and do_invite_users). Checks, in upstream's
 * order: a member or administrator, allowed by can_invite_users_group ("Insufficient
 * permission"), the role it grants, at least one address, the channels, the groups, the day's
 * limit of invitation emails, each address's form ("Invalid address.": nothing is sent), and
 * existing accounts (skipped; when every address is skipped, nothing is sent). Writes one
 * invitation per remaining address (an address already invited gets another, as upstream's),
 * emails each its /join/<key>/ link, and emits invites_changed. Returns the skipped addresses:
 * the caller reports them with the invitations sent to the others.
 */
export const checkInviteUsersByEmail = forMembers(
  async (user: User, realm: Realm, request: EmailInviteRequest): Promise<InvitationSkip[]> => {
    const groups = await RealmGroups.load(realm.id);
    if (!hasRealmPermission(realm, groups, user, 'can_invite_users_group')) throw new BadRequestError('Insufficient permission');
    const requireAdmin = ([INVITE_AS.REALM_OWNER, INVITE_AS.REALM_ADMIN, INVITE_AS.MODERATOR] as number[]).includes(request.invitedAs);
    checkRoleBasedPermissions(request.invitedAs, user, { requireAdmin });
    if (request.inviteeEmails === '') throw new BadRequestError('You must specify at least one email address.');
    const emails = parseInviteeEmails(request.inviteeEmails);
    await checkInviteChannels(user, realm, groups, request.streamIds);
    checkInviteGroups(user, realm, groups, request.groupIds);

    const now = nowSeconds();
    await checkInviteLimit(realm.id, emails.length, now);
    const errors: InvitationSkip[] = [];
    const candidates: string[] = [];
    for (const email of emails) {
      if (email === '') continue;
      if (isValidEmailAddress(email)) candidates.push(email);
      else errors.push([email, 'Invalid address.', false]);
    }
    const found = await Promise.all(candidates.map((email) => existingUserError(realm.id, email)));
    const skipped = found.filter((e): e is InvitationSkip => e !== undefined);
    const validated = candidates.filter((_, i) => found[i] === undefined);
    if (errors.length > 0) {
      throw new InvitationError("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], {
        sentInvitations: false,
      });
    }
    if (skipped.length > 0 && skipped.length === emails.length) {
      throw new InvitationError("We weren't able to invite anyone.", skipped, { sentInvitations: false });
    }
    if (validated.length > 0) {
      const pending = await invitesStore.listEmailInvitesOfRealm(realm.id);
      if (pending.length + validated.length > MAX_ORGANIZATION_PENDING_INVITATIONS) throw dailyLimitError();
      await countInviteEmails(realm.id, validated.length, now);
      const firstId = await allocateIds('emailInvite', validated.length);
      const invites: EmailInvite[] = validated.map((email, i) => ({
        id: firstId + i,
        realmId: realm.id,
        email,
        referredBy: user.id,
        invitedAs: request.invitedAs,
        streamIds: [...new Set(request.streamIds)],
        groupIds: [...new Set(request.groupIds)],
        includeRealmDefaultSubscriptions: request.includeRealmDefaultSubscriptions,
        notifyReferrerOnJoin: request.notifyReferrerOnJoin,
        dateCreated: now,
        expiryDate: request.expiresInMinutes === null ? null : now + request.expiresInMinutes * 60,
        confirmationKey: generateConfirmationKey(),
      }));
      // The rows first: an email never links to an invitation that was not written.
      await invitesStore.putEmailInvites(invites);
      await Promise.all(invites.map((invite) => sendInvitationEmail(realm, user, invite)));
    }
    await notifyInvitesChanged(realm.id, user.id);
    return skipped;
  },
);

/**
 * DELETE /invites/{id}: an email invitation the caller may manage (accessEmailInvite), deleted
 * (its link then names nothing) conditionally, so the loser of two concurrent revocations gets
 * "No such invitation". Emits invites_changed to the administrators and the inviter.
 */
export const doRevokeEmailInvite = async (user: User, inviteId: number): Promise<void> => {
  const invite = await accessEmailInvite(user, inviteId);
  if (!(await invitesStore.deleteEmailInvite(invite.realmId, invite.id))) throw new BadRequestError('No such invitation');
  await notifyInvitesChanged(invite.realmId, invite.referredBy);
};

/**
 * POST /invites/{id}/resend (upstream's do_send_user_invite_email with a new event time): an
 * email invitation the caller may manage (accessEmailInvite); counts one email against the
 * organization's day (the daily-limit error past it), then emails the same link again on behalf
 * of the inviter. No event: the invitation did not change.
 */
export const doResendEmailInvite = async (user: User, realm: Realm, inviteId: number): Promise<void> => {
  const invite = await accessEmailInvite(user, inviteId);
  const now = nowSeconds();
  await countInviteEmails(realm.id, 1, now);
  const referrer = invite.referredBy === null ? undefined : await usersStore.get(realm.id, invite.referredBy);
  if (!referrer) throw new BadRequestError('No such invitation');
  await sendInvitationEmail(realm, referrer, invite);
};
