// Bots, as upstream's add_bot_backend, get_bots_backend, patch_bot_backend, deactivate_bot_backend,
// regenerate_bot_api_key and the bot API key endpoint (zerver/views/users.py, zerver/actions/bots.py).
// Bots join no channels; this server keeps no default channels or configuration for them. An
// outgoing webhook bot has its service (upstream's Service: URL, interface, token) on its user item.
import { accessBot, checkBotNameAvailable, checkCanCreateBot } from '../../access/bots';
import { BadRequestError, MissingArgumentError, UnauthorizedPrincipalError } from '../../errors';
import { sendEvent } from '../../events/send';
import { avatarUrl } from '../../models/avatar';
import { realmHost, type Realm } from '../../models/realm';
import {
  botObject,
  botServices,
  BotType,
  checkFullName,
  isAdmin,
  isOwner,
  isValidEmail,
  Role,
  ServiceInterface,
  type User,
} from '../../models/user';
import { generateApiKey } from '../../passwords';
import * as usersStore from '../../store/users';
import { doCreateUser, EMAIL_IN_USE } from './create';
import { doChangeFullName, doChangeUserRole } from './update';
import { doDeactivateUser } from './deactivation';
import { replaceApiKey } from './api-keys';
import { forMembers } from '../requiring';
import { isValidUrl } from './profile-data';
import { LostRaceError, retryLostRaces } from '../retry';

export type CreateBotParams = { fullName: string; shortName: string; botType: number; payloadUrl?: string; interfaceType: number };

/**
 * Upstream's check_url on payload_url and service_payload_url (Django's URLValidator, "{name} is
 * not a URL"), narrowed to http and https: this server posts to nothing else.
 */
const checkPayloadUrl = (url: string, name: string): string => {
  if (!isValidUrl(url) || !/^https?:/i.test(url)) throw new BadRequestError(`${name} is not a URL`);
  return url;
};

/** Upstream's check_valid_interface_type: 1 (generic) or 2 (Slack-compatible), else "Invalid interface type". */
const checkInterfaceType = (interfaceType: number): number => {
  if (!(Object.values(ServiceInterface) as number[]).includes(interfaceType)) throw new BadRequestError('Invalid interface type');
  return interfaceType;
};

/** Upstream's bot_owner_user_ids (for a bot without a private default channel): the organization's active human administrators and the owner. */
const botAdministrators = async (realmId: number, ownerId: number | null): Promise<number[]> => {
  const users = await usersStore.listOfRealm(realmId);
  const ids = users.filter((u) => u.isActive && !u.isBot && isAdmin(u)).map((u) => u.id);
  return [...new Set(ownerId === null ? ids : [...ids, ownerId])];
};

/**
 * POST /bots (upstream's add_bot_backend), for members and administrators: a short name not blank
 * ("Bad name or username"), the full name (checkFullName), no embedded bot ("Embedded bots are not
 * enabled."), the email `<short name>-bot@<organization host>` valid ("Bad name or username") and
 * unused ("Username already in use"), the name unused by an active user ("Name is already in
 * use."), the type allowed (checkCanCreateBot), the interface type (checkInterfaceType); an
 * outgoing webhook bot needs its payload_url (checkPayloadUrl, checked first as upstream's
 * parameter is). Then doCreateUser as a member bot owned by the caller, with its service (a new
 * token) for an outgoing webhook bot, and `realm_bot` add to the bot's administrators. Returns the new bot.
 */
export const checkCreateBot = forMembers(async (caller: User, realm: Realm, p: CreateBotParams): Promise<User> => {
  if (p.payloadUrl !== undefined) checkPayloadUrl(p.payloadUrl, 'payload_url');
  const shortName = p.shortName.trim();
  if (shortName === '') throw new BadRequestError('Bad name or username');
  const fullName = checkFullName(p.fullName);
  if (p.botType === BotType.EMBEDDED) throw new BadRequestError('Embedded bots are not enabled.');
  const email = `${shortName}-bot@${realmHost(realm)}`;
  if (!isValidEmail(email)) throw new BadRequestError('Bad name or username');
  if (await usersStore.isEmailTaken(realm.id, email)) throw new BadRequestError('Username already in use');
  await checkBotNameAvailable(realm.id, fullName, { isActivation: false });
  await checkCanCreateBot(caller, realm, p.botType);
  const interfaceType = checkInterfaceType(p.interfaceType);
  const outgoing = p.botType === BotType.OUTGOING_WEBHOOK;
  if (outgoing && p.payloadUrl === undefined) throw new MissingArgumentError('payload_url');
  const service = outgoing ? { baseUrl: p.payloadUrl!, interface: interfaceType, token: generateApiKey() } : undefined;
  const bot = await doCreateUser(realm, {
    email,
    fullName,
    role: Role.MEMBER,
    bot: { botType: p.botType, ownerId: caller.id, ...(service ? { service } : {}) },
    actingUser: caller,
  }).catch((error: unknown) => {
    // A concurrent creation took the email after the check above: the same answer as the check's.
    throw error instanceof BadRequestError && error.message === EMAIL_IN_USE ? new BadRequestError('Username already in use') : error;
  });
  await sendEvent(realm.id, { type: 'realm_bot', op: 'add', bot: botObject(bot) }, { users: await botAdministrators(realm.id, caller.id) });
  return bot;
});

/** The bot fields POST /bots, GET /bots and PATCH /bots/{bot_id} answer with (no default channels here). */
export const botDefaults = (bot: User) => ({
  avatar_url: avatarUrl(bot),
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
});

/**
 * GET /bots (upstream's get_bots_backend), for members and administrators: the caller's own
 * active bots (administrators too see only their own), oldest first.
 */
export const listOwnBots = forMembers(async (caller: User): Promise<User[]> => {
  const users = await usersStore.listOfRealm(caller.realmId);
  return users
    .filter((u) => u.isBot && u.isActive && u.botOwnerId === caller.id)
    .sort((a, b) => a.dateJoined - b.dateJoined || a.id - b.id);
});

export type UpdateBotParams = {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  servicePayloadUrl?: string;
  serviceInterface: number;
};

/**
 * PATCH /bots/{bot_id} (upstream's patch_bot_backend), for members and administrators: the bot
 * through accessBot; a new full name (upstream's check_change_bot_full_name: the same name changes
 * nothing, else checkFullName and checkBotNameAvailable); a new role with update_user_backend's
 * rules (owners for owners, else administrators); a new owner, an active human of the
 * organization ("Failed to change owner, no such user" / "..., user is deactivated" / "..., bots
 * can't own other bots"); a new service_payload_url (checkPayloadUrl, first, as upstream's parameter)
 * with service_interface (checkInterfaceType), for an outgoing webhook bot only ("This bot has no
 * outgoing webhook service": upstream fails with a 500). Each change is made after its own checks,
 * as upstream's. Returns the bot as it is afterwards, and its owner's email.
 */
export const checkUpdateBot = forMembers(
  async (caller: User, realm: Realm, botId: number, p: UpdateBotParams): Promise<{ bot: User; ownerEmail: string | null }> => {
    if (p.servicePayloadUrl !== undefined) checkPayloadUrl(p.servicePayloadUrl, 'service_payload_url');
    const bot = await accessBot(caller, botId);
    if (p.fullName !== undefined && p.fullName !== bot.fullName) {
      const fullName = checkFullName(p.fullName);
      if (fullName !== bot.fullName) {
        await checkBotNameAvailable(realm.id, fullName, { isActivation: false });
        await doChangeFullName(realm, bot, fullName);
      }
    }
    if (p.role !== undefined && p.role !== bot.role) {
      if ((p.role === Role.OWNER || bot.role === Role.OWNER) && !isOwner(caller)) {
        throw new UnauthorizedPrincipalError('Must be an organization owner');
      }
      if (!isAdmin(caller)) throw new UnauthorizedPrincipalError('Must be an organization administrator');
      await doChangeUserRole(realm, bot, p.role as Role);
    }
    if (p.botOwnerId !== undefined) {
      const owner = await usersStore.get(realm.id, p.botOwnerId, { consistent: true });
      if (!owner || owner.realmId !== realm.id) throw new BadRequestError('Failed to change owner, no such user');
      if (!owner.isActive) throw new BadRequestError('Failed to change owner, user is deactivated');
      if (owner.isBot) throw new BadRequestError("Failed to change owner, bots can't own other bots");
      await doChangeBotOwner(realm, bot, owner);
    }
    if (p.servicePayloadUrl !== undefined) {
      checkInterfaceType(p.serviceInterface);
      if (!bot.service) throw new BadRequestError('This bot has no outgoing webhook service');
      await doUpdateOutgoingWebhookService(bot, { ...bot.service, baseUrl: p.servicePayloadUrl, interface: p.serviceInterface });
    }
    const updated = (await usersStore.get(realm.id, bot.id, { consistent: true }))!;
    const owner = updated.botOwnerId === null ? undefined : await usersStore.get(realm.id, updated.botOwnerId);
    return { bot: updated, ownerEmail: owner?.email ?? null };
  },
);

/**
 * Upstream's do_change_bot_owner (feature level 474): writes the owner if it is still the one
 * read (nothing when it already is `owner`). Emits `realm_bot` delete to the previous owner and
 * `realm_bot` add to the new one, each unless an administrator (who sees every bot anyway), and
 * `realm_user` update {bot_owner_id} to the organization.
 */
const doChangeBotOwner = async (realm: Realm, bot: User, owner: User): Promise<void> => {
  const previousId = await retryLostRaces(async () => {
    const current = (await usersStore.get(realm.id, bot.id, { consistent: true }))!;
    if (current.botOwnerId === owner.id) return undefined;
    if (!(await usersStore.setIf(realm.id, bot.id, 'botOwnerId', current.botOwnerId, owner.id))) throw new LostRaceError();
    return current.botOwnerId;
  });
  if (previousId === undefined) return;
  const previous = previousId === null ? undefined : await usersStore.get(realm.id, previousId);
  if (previous && !isAdmin(previous)) {
    await sendEvent(realm.id, { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, { users: [previous.id] });
  }
  if (!isAdmin(owner)) await sendEvent(realm.id, { type: 'realm_bot', op: 'add', bot: botObject(bot) }, { users: [owner.id] });
  await sendEvent(realm.id, { type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, 'realm');
};

/**
 * Upstream's do_update_outgoing_webhook_service: writes the bot's service (URL and interface; the
 * token stays), then `realm_bot` update {services} to the bot's administrators.
 */
const doUpdateOutgoingWebhookService = async (bot: User, service: NonNullable<User['service']>): Promise<void> => {
  await usersStore.update(bot.realmId, bot.id, { service });
  await sendEvent(
    bot.realmId,
    { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, services: botServices({ service }) } },
    { users: await botAdministrators(bot.realmId, bot.botOwnerId) },
  );
};

/**
 * DELETE /bots/{bot_id} (upstream's deactivate_bot_backend): the bot through accessBot, then
 * doDeactivateUser (upstream's deactivation of an inactive bot changes and sends nothing).
 */
export const checkDeactivateBot = async (caller: User, realm: Realm, botId: number): Promise<void> => {
  const bot = await accessBot(caller, botId);
  if (!bot.isActive) return;
  await doDeactivateUser(realm, bot);
};

/** GET /bots/{bot_id}/api_key (upstream's get_bot_api_key), for members and administrators: the bot through accessBot. */
export const getBotApiKey = forMembers(async (caller: User, botId: number): Promise<string> => (await accessBot(caller, botId)).apiKey);

/**
 * POST /bots/{bot_id}/api_key/regenerate (upstream's regenerate_bot_api_key), for members and
 * administrators: the bot through accessBot, then a new API key, conditioned on the key read (a
 * concurrent regeneration makes this one start again), so the old key stops working at once, and
 * the bot's event queues end (replaceApiKey). No event (feature level 474). Returns the new key.
 */
export const doRegenerateBotApiKey = forMembers(async (caller: User, botId: number): Promise<string> => {
  const bot = await accessBot(caller, botId);
  const apiKey = generateApiKey();
  await retryLostRaces(async () => {
    const current = (await usersStore.get(bot.realmId, bot.id, { consistent: true }))!;
    if (!(await replaceApiKey(bot, current.apiKey, apiKey))) throw new LostRaceError();
  });
  return apiKey;
});
