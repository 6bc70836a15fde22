// Creating an organization from a realm creation link, as upstream's create_realm view and
// do_create_realm (zerver/actions/create_realm.py): the link (npm run create-realm-link), the
// subdomain's checks with upstream's texts, then the organization with its system groups, its
// first channels and their welcome messages, and its owner.
import { nowSeconds } from '../../clock';
import { generateConfirmationKey, isValidEmailAddress } from '../../models/invite';
import { MAX_REALM_NAME_LENGTH, type Realm } from '../../models/realm';
import { accountFieldErrors, checkFullName, Role, type User } from '../../models/user';
import type { UserGroup } from '../../models/user-group';
import * as channelsStore from '../../store/channels';
import { allocateIds, batchPut, raiseCounter } from '../../store/common';
import * as defaultChannelsStore from '../../store/default-channels';
import * as realmCreationStore from '../../store/realm-creation';
import * as realmsStore from '../../store/realms';
import { buildGroupItems } from '../../store/user-groups';
import { doSubscribeSelf } from '../channels/subscriptions';
import { doCreateUser } from '../people/create';
import { sendInternalMessage } from '../messages/send';
import { ensureSystemBot, SYSTEM_BOTS } from '../people/system-bots';
import { LostRaceError, retryLostRaces } from '../retry';

/** Upstream's REALM_CREATION_LINK_VALIDITY_DAYS. */
export const REALM_CREATION_LINK_VALIDITY_DAYS = 7;
/** Upstream's Realm.MAX_REALM_SUBDOMAIN_LENGTH and the shortest subdomain check_subdomain_available accepts. */
const MAX_SUBDOMAIN_LENGTH = 40;
const MIN_SUBDOMAIN_LENGTH = 3;

/** Some of upstream's reserved subdomains (zerver/lib/name_restrictions.py): the service's own names and common ones. */
const RESERVED_SUBDOMAINS = new Set([
  'about',
  'abuse',
  'account',
  'accounts',
  'admin',
  'administrator',
  'api',
  'app',
  'apps',
  'assets',
  'auth',
  'billing',
  'blog',
  'chat',
  'cdn',
  'dev',
  'docs',
  'download',
  'email',
  'emails',
  'ftp',
  'help',
  'imap',
  'join',
  'login',
  'mail',
  'new',
  'ns1',
  'ns2',
  'pop',
  'root',
  'signup',
  'smtp',
  'static',
  'status',
  'support',
  'test',
  'user',
  'users',
  'webmail',
  'www',
  'zulip',
]);

/** Upstream's check_subdomain_available texts. */
export const SUBDOMAIN_ERRORS = {
  tooShort: 'Subdomain needs to have length 3 or greater.',
  extremalDash: "Subdomain cannot start or end with a '-'.",
  badCharacter: "Subdomain can only have lowercase letters, numbers, and '-'s.",
  unavailable: 'Subdomain already in use. Please choose a different one.',
  reserved: 'Subdomain reserved. Please choose a different one.',
} as const;

/** The link a realm creation key opens, at the service's root URL. */
export const realmCreationUrl = (base: string, key: string): string => `${base.replace(/\/+$/, '')}/new/${key}/`;

/**
 * A new one-time realm creation link's key (upstream's generate_realm_creation_url), valid
 * REALM_CREATION_LINK_VALIDITY_DAYS. Writes the key's item.
 */
export const doCreateRealmCreationKey = async (): Promise<string> => {
  const creationKey = generateConfirmationKey();
  const now = nowSeconds();
  await realmCreationStore.putRealmCreationKey({ creationKey, dateCreated: now }, now + REALM_CREATION_LINK_VALIDITY_DAYS * 24 * 60 * 60);
  return creationKey;
};

/** Whether a link's key is valid now (upstream's validate_key): issued, unused, unexpired. */
export const isValidRealmCreationKey = async (creationKey: string): Promise<boolean> => {
  const key = await realmCreationStore.getRealmCreationKey(creationKey);
  return key !== undefined && key.validUntil >= nowSeconds();
};

/** A subdomain's first problem (upstream's check_subdomain_available, in its order), without the lookup. */
export const subdomainFormError = (subdomain: string): string | undefined => {
  if (subdomain.length > MAX_SUBDOMAIN_LENGTH)
    return `Ensure this value has at most ${MAX_SUBDOMAIN_LENGTH} characters (it has ${subdomain.length}).`;
  if (subdomain === '') return 'This field is required.';
  if (subdomain.startsWith('-') || subdomain.endsWith('-')) return SUBDOMAIN_ERRORS.extremalDash;
  if (!/^[a-z0-9-]*$/.test(subdomain)) return SUBDOMAIN_ERRORS.badCharacter;
  if (subdomain.length < MIN_SUBDOMAIN_LENGTH) return SUBDOMAIN_ERRORS.tooShort;
  if (RESERVED_SUBDOMAINS.has(subdomain)) return SUBDOMAIN_ERRORS.reserved;
  return undefined;
};

export type NewRealmForm = { realmName: string; subdomain: string; email: string; fullName: string; password: string };

/** The form's errors by field, in the form's order; empty when the organization may be created. */
const newRealmFormErrors = async (form: NewRealmForm): Promise<string[]> => {
  const errors: string[] = [];
  const name = form.realmName.trim();
  if (name === '') errors.push('This field is required.');
  else if ([...name].length > MAX_REALM_NAME_LENGTH)
    errors.push(`Ensure this value has at most ${MAX_REALM_NAME_LENGTH} characters (it has ${[...name].length}).`);
  const subdomainError = subdomainFormError(form.subdomain);
  if (subdomainError !== undefined) errors.push(subdomainError);
  else if (await realmsStore.getByStringId(form.subdomain)) errors.push(SUBDOMAIN_ERRORS.unavailable);
  const email = form.email.trim();
  if (email === '') errors.push('This field is required.');
  else if (!isValidEmailAddress(email) || Buffer.byteLength(email, 'utf8') > 254) errors.push('Enter a valid email address.');
  errors.push(...accountFieldErrors(form.fullName, form.password));
  return errors;
};

/** Upstream's system groups of a new organization, each containing the next more privileged one. */
const SYSTEM_GROUPS: { name: string; description: string; subgroup?: string }[] = [
  { name: 'role:owners', description: 'Owners of this organization' },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', subgroup: 'role:owners' },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', subgroup: 'role:administrators' },
  {
    name: 'role:fullmembers',
    description: 'Members of this organization, not including new accounts and guests',
    subgroup: 'role:moderators',
  },
  { name: 'role:members', description: 'Members of this organization, not including guests', subgroup: 'role:moderators' },
  { name: 'role:everyone', description: 'Everyone in this organization, including guests', subgroup: 'role:members' },
  { name: 'role:internet', description: 'Everyone on the Internet', subgroup: 'role:everyone' },
  { name: 'role:nobody', description: 'Nobody' },
];

/** A new organization's system groups (fresh ids, no members yet): upstream's create_system_user_groups_for_realm. */
export const buildSystemGroups = async (realmId: number, now: number): Promise<UserGroup[]> => {
  const firstId = await allocateIds('userGroup', SYSTEM_GROUPS.length);
  const idOf = (name: string) => firstId + SYSTEM_GROUPS.findIndex((g) => g.name === name);
  const nobody = idOf('role:nobody');
  return SYSTEM_GROUPS.map((g, i) => ({
    id: firstId + i,
    realmId,
    name: g.name,
    description: g.description,
    members: [],
    directSubgroupIds: g.subgroup ? [idOf(g.subgroup)] : [],
    isSystemGroup: true,
    deactivated: false,
    creatorId: null,
    dateCreated: now,
    groupSettings: {
      can_add_members_group: nobody,
      can_join_group: nobody,
      can_leave_group: nobody,
      can_manage_group: nobody,
      can_mention_group: idOf('role:everyone'),
      can_remove_members_group: nobody,
    },
    version: 0,
  }));
};

/** A new organization as do_create_realm makes it, before its announcements channels exist. */
export const newRealm = (id: number, stringId: string, name: string, now: number): Realm => ({
  id,
  stringId,
  name,
  description: '',
  dateCreated: now,
  deactivated: false,
  presenceDisabled: false,
  enableSpectatorAccess: false,
  waitingPeriodThreshold: 0,
  emptyTopicDisplayName: 'general chat',
  demoOrganizationScheduledDeletionDate: null,
  limits: {
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    max_reminder_note_length: 1000,
    max_topic_length: 60,
  },
  groupSettings: {},
});

/** Upstream's first channels of an organization (general gets the announcements), and their welcome messages. */
const FIRST_CHANNELS = [
  {
    name: 'general',
    description: 'Everyone is added to this channel by default. Welcome! :octopus:',
    topic: 'welcome to Zulip!',
    message:
      'Welcome to Zulip! :wave:\n\nZulip organizes conversations into **channels** and **topics**: each message of a channel has a topic, so that many conversations can happen at once without getting mixed up.',
  },
  {
    name: 'sandbox',
    description: 'Experiment with Zulip here. :test_tube:',
    topic: 'sandbox',
    message: "Use this topic to try out Zulip's messaging features: **formatting**, `code`, emoji :smile:, and mentions.",
  },
];

/**
 * The new-organization form (upstream's create_realm with a valid key): the organization's name,
 * the subdomain (check_subdomain_available's texts; 'unavailable' when an organization has it),
 * the owner's email, name and password. A refusal is the form's errors and writes nothing; a link
 * used meanwhile is 'link_invalid'. Then, as do_create_realm: the system groups, the organization
 * (with the link's key consumed and its subdomain locked, in one transaction), the owner
 * (doCreateUser with role owner), the channels general and sandbox created by the owner and made
 * the default channels, general the announcements channel, and Welcome Bot's welcome message in
 * each. Emits what those actions emit (the owner's queues are the only ones there can be).
 */
export const checkCreateRealm = async (
  creationKey: string,
  form: NewRealmForm,
): Promise<{ realm: Realm; owner: User } | { errors: string[] } | 'link_invalid'> => {
  const errors = await newRealmFormErrors(form);
  if (errors.length > 0) return { errors };
  const now = nowSeconds();
  const [, welcomeBot] = await Promise.all(SYSTEM_BOTS.map(ensureSystemBot));
  await raiseCounter('realm', realmsStore.FIRST_CREATED_REALM_ID - 1);
  const realmId = await allocateIds('realm');
  const groups = await buildSystemGroups(realmId, now);
  // The groups first: before the organization exists nothing reads them.
  await batchPut('main', groups.flatMap(buildGroupItems));
  let realm = newRealm(realmId, form.subdomain, form.realmName.trim(), now);
  const outcome = await retryLostRaces(async () => {
    const written = await realmCreationStore.createRealmWithKey(realm, creationKey);
    if (written === 'conflict') throw new LostRaceError();
    return written;
  });
  if (outcome === 'key_gone') return 'link_invalid';
  if (outcome === 'subdomain_taken') return { errors: [SUBDOMAIN_ERRORS.unavailable] };

  const owner = await doCreateUser(realm, {
    email: form.email.trim(),
    fullName: checkFullName(form.fullName),
    role: Role.OWNER,
    password: form.password,
  });
  await doSubscribeSelf(
    realm,
    owner,
    FIRST_CHANNELS.map((c) => ({ name: c.name, description: c.description })),
  );
  const channels = await channelsStore.getChannelsByNames(
    realm.id,
    FIRST_CHANNELS.map((c) => c.name),
    { consistent: true },
  );
  for (const channel of channels) await defaultChannelsStore.addDefaultChannel(realm.id, channel.id);
  const general = channels.find((c) => c.name === 'general')!;
  realm = { ...realm, newStreamAnnouncementsStreamId: general.id, signupAnnouncementsStreamId: general.id };
  await realmsStore.put(realm);
  for (const c of FIRST_CHANNELS) {
    const channel = channels.find((ch) => ch.name === c.name)!;
    await sendInternalMessage(realm, welcomeBot, { channel, topic: c.topic }, c.message);
  }
  return { realm, owner };
};
