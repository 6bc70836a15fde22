// Creating an account, as upstream's do_create_user: the one path every way in takes (POST /users
// today; sign-up pages, invitations and bots later), so that each new account gets the same
// groups, subscriptions, events and notices.
import { nowSeconds } from '../../clock';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import type { Channel } from '../../models/channel';
import type { Realm } from '../../models/realm';
import {
  isAdmin,
  isOwner,
  NOTIFICATION_BOT_EMAIL,
  Role,
  type BotService,
  type User,
  checkFullName,
  isStrongEnoughPassword,
  isValidEmail,
  WEAK_PASSWORD,
} from '../../models/user';
import { realmUserSettingsDefaults, USER_ITEM_SETTINGS } from '../../models/user-settings';
import { generateApiKey, hashPassword } from '../../passwords';
import { newUserObject } from '../../models/user-object';
import * as channelsStore from '../../store/channels';
import { allocateIds } from '../../store/common';
import * as defaultChannelsStore from '../../store/default-channels';
import { FIRST_CREATED_REALM_ID } from '../../store/realms';
import * as usersStore from '../../store/users';
import { doAddSubscriptions } from '../channels/subscriptions';
import { doAddGroupMember, systemGroupIds, systemGroupNamesForRole } from '../groups/role-groups';
import { sendInternalMessage } from '../messages/send';
import { LostRaceError, retryLostRaces } from '../retry';
import { ensureSystemBot, WELCOME_BOT } from './system-bots';
import { forAdministrators } from '../requiring';

/** Upstream's message for an email already taken in the organization (any case). */
export const EMAIL_IN_USE = 'Email is already in use.';

/** Upstream's topic of the new-user notices in the signup announcements channel. */
const SIGNUPS_TOPIC = 'signups';

export type NewUserRequest = {
  /** Already checked by the caller (a valid address of at most 254 bytes: it is part of a key). */
  email: string;
  /** Already checked (checkFullName); stored as given. */
  fullName: string;
  role: Role;
  /** The password to set, hashed here; none for an account that signs in otherwise (bots). */
  password?: string;
  /** A bot: its type and owner (and an outgoing webhook bot's service). Bots join no channels and get no notices. */
  bot?: { botType: number; ownerId: number | null; service?: BotService };
  /** Channels to join besides the organization's default channels (an invitation's). */
  channelIds?: number[];
  /** User groups to join besides the role's system groups (an invitation's). */
  groupIds?: number[];
  /** Whether to join the default channels (an invitation may say not to); true by default. */
  includeDefaultChannels?: boolean;
  timezone?: string;
  /** Who creates the account (an administrator); the new user themselves when signing up. */
  actingUser?: User;
};

/**
 * A new human's settings: the organization's defaults for new users (PATCH
 * /realm/user_settings_defaults, upstream's copy_default_settings), those kept on the user as
 * attributes and the rest in its settings map; a time zone comes from the signup, never the defaults.
 */
const startingSettings = (realm: Realm): Pick<User, 'presenceEnabled' | 'enableDraftsSynchronization' | 'settings'> => {
  const defaults = realmUserSettingsDefaults(realm);
  const inMap = Object.fromEntries(
    Object.entries(realm.userSettingsDefaults ?? {}).filter(
      ([name]) => !(name in USER_ITEM_SETTINGS) && name !== 'email_address_visibility',
    ),
  );
  return {
    presenceEnabled: defaults.presence_enabled,
    enableDraftsSynchronization: defaults.enable_drafts_synchronization,
    ...(Object.keys(inMap).length > 0 ? { settings: inMap } : {}),
  };
};

/**
 * Creates an account, as upstream's do_create_user. Writes, in order: the user with its email lock
 * and password hash in one transaction ("Email is already in use." when the email, in any case,
 * is taken in the organization, also by a concurrent creation: exactly one of them succeeds); the
 * direct membership of the role's system group (and role:fullmembers for a member past the
 * organization's waiting period) and of `groupIds`; for a human, the subscriptions to the default
 * channels and `channelIds` (archived ones left out). Emits `realm_user` add to the organization,
 * `user_group` add_members per group, the subscription events (`subscription` add to the new user,
 * peer_add to those who see each channel's subscribers), and for a human Notification Bot's
 * "{user} joined this organization." in the signup announcements channel, if the organization has
 * one, and Welcome Bot's welcome direct message to the new user (unread). Returns the new user. No permission checks: the caller made them.
 */
export const doCreateUser = async (realm: Realm, req: NewUserRequest): Promise<User> => {
  const id = await allocateIds('user');
  const user: User = {
    id,
    realmId: realm.id,
    email: req.email,
    fullName: req.fullName,
    role: req.role,
    isBot: req.bot !== undefined,
    botType: req.bot?.botType ?? null,
    botOwnerId: req.bot?.ownerId ?? null,
    ...(req.bot?.service ? { service: req.bot.service } : {}),
    isActive: true,
    timezone: req.timezone ?? '',
    dateJoined: nowSeconds(),
    apiKey: generateApiKey(),
    ...(req.bot === undefined ? startingSettings(realm) : { presenceEnabled: true, enableDraftsSynchronization: true }),
  };
  const hash = req.password === undefined ? undefined : await hashPassword(req.password);
  await retryLostRaces(async () => {
    const outcome = await usersStore.createUser(user, hash);
    if (outcome === 'taken') throw new BadRequestError(EMAIL_IN_USE);
    if (outcome === 'conflict') throw new LostRaceError();
  });

  await sendEvent(realm.id, { type: 'realm_user', op: 'add', person: newUserObject(user) }, 'realm');
  const groupIds = [...(await systemGroupIds(realm.id, systemGroupNamesForRole(realm, user, user.role))), ...(req.groupIds ?? [])];
  for (const groupId of [...new Set(groupIds)]) await doAddGroupMember(realm.id, groupId, user.id);
  if (user.isBot) return user;

  const defaults = req.includeDefaultChannels === false ? [] : await defaultChannelsStore.listDefaultChannelIds(realm.id);
  const channelIds = [...new Set([...defaults, ...(req.channelIds ?? [])])];
  const channels = (await Promise.all(channelIds.map((cid) => channelsStore.getChannel(realm.id, cid)))).filter(
    (c): c is Channel => c !== undefined,
  );
  await doAddSubscriptions(realm, req.actingUser ?? user, channels, [user]);
  await sendSignupNotice(realm, user);
  await sendWelcomeMessage(realm, user);
  return user;
};

/** Upstream's notify_new_user: Notification Bot's notice in the signup announcements channel, if any (and not archived). */
const sendSignupNotice = async (realm: Realm, user: User): Promise<void> => {
  if (realm.signupAnnouncementsStreamId == null) return;
  const [channel, bot] = await Promise.all([
    channelsStore.getChannel(realm.id, realm.signupAnnouncementsStreamId),
    usersStore.getSystemBot(NOTIFICATION_BOT_EMAIL),
  ]);
  if (!channel || channel.isArchived || !bot) return;
  await sendInternalMessage(realm, bot, { channel, topic: SIGNUPS_TOPIC }, `@_**${user.fullName}|${user.id}** joined this organization.`);
};

/**
 * Upstream's send_initial_direct_message: Welcome Bot's direct message to a new person, with the
 * getting started guide, the organization setup guide for an administrator, and a demo
 * organization's deletion for its owner. The conversations it points to are Welcome Bot's
 * messages in the channels of an organization created here (checkCreateRealm); the development
 * data set's organizations have none. Upstream's link to its tour video (a file of its own
 * servers) is left out.
 */
export const welcomeMessageContent = (realm: Realm, user: User): string => {
  const paragraphs = [
    realm.id >= FIRST_CREATED_REALM_ID
      ? "Hello, and welcome to Zulip!👋 I've kicked off some conversations to help you get started. You can find them in your [Inbox](/#inbox)."
      : 'Hello, and welcome to Zulip!👋',
    isAdmin(user)
      ? 'To learn more, check out our [getting started guide](/help/getting-started-with-zulip)! We also have a guide for [moving your organization to Zulip](/help/moving-to-zulip).'
      : 'To learn more, check out our [getting started guide](/help/getting-started-with-zulip)!',
  ];
  if (isOwner(user) && realm.demoOrganizationScheduledDeletionDate != null) {
    paragraphs.push(
      "Note that this is a [demo organization](/help/demo-organizations) and will be **automatically deleted** in 30 days, unless it's [converted into a permanent organization](/help/demo-organizations#convert-a-demo-organization-to-a-permanent-organization).",
    );
  }
  return paragraphs.join('\n\n');
};

/** Sends Welcome Bot's welcome direct message to a new person (Welcome Bot created if the stage has none). */
const sendWelcomeMessage = async (realm: Realm, user: User): Promise<void> => {
  const bot = await ensureSystemBot(WELCOME_BOT);
  await sendInternalMessage(realm, bot, { user }, welcomeMessageContent(realm, user));
};

export type CreateUserParams = { email: string; password: string; fullName: string };

/**
 * POST /users (upstream's create_user_backend): administrators only ("Must be an organization
 * administrator"), then the caller's can_create_users ("User not authorized to create users");
 * the name (checkFullName), the email ("Bad name or username"), not in use ("Email is already in
 * use."), the password's strength ("The password is too weak."). Then doCreateUser as a member,
 * with the caller acting. Returns the new user's id.
 */
export const checkCreateUser = forAdministrators(async (caller: User, realm: Realm, p: CreateUserParams): Promise<number> => {
  if (caller.canCreateUsers !== true) throw new BadRequestError('User not authorized to create users');
  const fullName = checkFullName(p.fullName);
  const email = p.email.trim();
  if (!isValidEmail(email)) throw new BadRequestError('Bad name or username');
  if (await usersStore.isEmailTaken(realm.id, email)) throw new BadRequestError(EMAIL_IN_USE);
  if (!isStrongEnoughPassword(p.password)) throw new BadRequestError(WEAK_PASSWORD);
  const user = await doCreateUser(realm, { email, fullName, role: Role.MEMBER, password: p.password, actingUser: caller });
  return user.id;
});
