// Upstream's cross-realm system bots (settings.NOTIFICATION_BOT, settings.WELCOME_BOT): users of
// the internal organization that post notices in every organization. A stage that was never seeded
// has none, so they are created when first needed.
import { nowSeconds } from '../../clock';
import { INTERNAL_REALM_ID, NOTIFICATION_BOT_EMAIL, Role, WELCOME_BOT_EMAIL, type User } from '../../models/user';
import { generateApiKey } from '../../passwords';
import { allocateIds } from '../../store/common';
import * as usersStore from '../../store/users';

export type SystemBot = { email: string; fullName: string };

const NOTIFICATION_BOT: SystemBot = { email: NOTIFICATION_BOT_EMAIL, fullName: 'Notification Bot' };
export const WELCOME_BOT: SystemBot = { email: WELCOME_BOT_EMAIL, fullName: 'Welcome Bot' };

/** The system bots a new organization's messages come from. */
export const SYSTEM_BOTS = [NOTIFICATION_BOT, WELCOME_BOT];

/**
 * The system bot of `bot.email`, created in the internal organization when missing. Writes the
 * bot (a concurrent creation of the same bot wins by the email lock, and that one is read);
 * emits no event (no organization sees the internal one's users).
 */
export const ensureSystemBot = async (bot: SystemBot): Promise<User> => {
  const existing = await usersStore.getSystemBot(bot.email);
  if (existing) return existing;
  const user: User = {
    id: await allocateIds('user'),
    realmId: INTERNAL_REALM_ID,
    email: bot.email,
    fullName: bot.fullName,
    role: Role.MEMBER,
    isBot: true,
    botType: 1,
    botOwnerId: null,
    isActive: true,
    timezone: '',
    dateJoined: nowSeconds(),
    apiKey: generateApiKey(),
    presenceEnabled: false,
    enableDraftsSynchronization: false,
  };
  if ((await usersStore.createUser(user)) !== 'created') return (await usersStore.getSystemBot(bot.email))!;
  return user;
};
