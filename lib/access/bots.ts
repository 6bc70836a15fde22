// Who may create and administer bots, as upstream's access_bot_by_id, check_can_create_bot,
// UserProfile.allowed_bot_types and check_bot_name_available.
import { BadRequestError, UnauthorizedPrincipalError } from '../errors';
import type { Realm } from '../models/realm';
import { BotType, isAdmin, isOwner, type User } from '../models/user';
import * as usersStore from '../store/users';
import { hasRealmPermission, RealmGroups } from './user-groups';

/** How many users of one name (any case) the name check reads; more is far beyond any real organization. */
const MAX_SAME_NAME = 100;

/** Upstream's can_admin_user: an administrator of the organization, or the owner of the bot. */
export const canAdminUser = (caller: User, target: User): boolean => target.botOwnerId === caller.id || isAdmin(caller);

/**
 * Upstream's access_bot_by_id: a bot of the caller's organization, active or not ("No such bot"
 * for a missing user, another organization's and a human), that the caller owns or administers
 * ("Insufficient permission"); a bot with can_create_users only for an owner ("Must be an
 * organization owner"). Read consistently.
 */
export const accessBot = async (caller: User, botId: number): Promise<User> => {
  const bot = await usersStore.get(caller.realmId, botId, { consistent: true });
  if (!bot || bot.realmId !== caller.realmId || !bot.isBot) throw new BadRequestError('No such bot');
  if (!canAdminUser(caller, bot)) throw new BadRequestError('Insufficient permission');
  if (bot.canCreateUsers === true && !isOwner(caller)) throw new UnauthorizedPrincipalError('Must be an organization owner');
  return bot;
};

/**
 * Upstream's check_can_create_bot, then check_valid_bot_type: can_create_bots_group may create
 * every type this server runs, can_create_write_only_bots_group incoming webhooks only
 * ("Insufficient permission" otherwise), and the type must be one of those the caller may create
 * ("Invalid bot type"). Not run here, so never allowed: embedded bots (upstream's default,
 * EMBEDDED_BOTS_ENABLED off).
 */
export const checkCanCreateBot = async (caller: User, realm: Realm, botType: number): Promise<void> => {
  const groups = await RealmGroups.load(realm.id);
  const anyType = hasRealmPermission(realm, groups, caller, 'can_create_bots_group');
  const writeOnly = !anyType && hasRealmPermission(realm, groups, caller, 'can_create_write_only_bots_group');
  if (!anyType && !(writeOnly && botType === BotType.INCOMING_WEBHOOK)) throw new BadRequestError('Insufficient permission');
  const allowed: number[] = anyType ? [BotType.DEFAULT, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK] : [BotType.INCOMING_WEBHOOK];
  if (!allowed.includes(botType)) throw new BadRequestError('Invalid bot type');
};

/**
 * Upstream's check_bot_name_available: no active user of the organization has exactly this name
 * ("Name is already in use."; for a reactivation, upstream's longer text). Like upstream's, a
 * check against accidents, not a guarantee (two concurrent creations may both pass).
 */
export const checkBotNameAvailable = async (realmId: number, fullName: string, opts: { isActivation: boolean }): Promise<void> => {
  const name = fullName.trim();
  const sameName = await usersStore.listByFullNames(realmId, [name], MAX_SAME_NAME);
  if (!sameName.some((u) => u.isActive && u.fullName === name)) return;
  if (!opts.isActivation) throw new BadRequestError('Name is already in use.');
  throw new BadRequestError(
    `There is already an active bot named "${fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
  );
};
