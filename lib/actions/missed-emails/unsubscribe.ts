// One-click unsubscribe from an email type (upstream's email_unsubscribe view and
// email_unsubscribers): the link in every missed-message (and digest) email works without signing
// in; its token names the user and the type, and following it turns the type's setting off.
import * as missedEmailsStore from '../../store/missed-emails';
import * as usersStore from '../../store/users';
import { doChangeUserSettings } from '../people/settings';

/** Each type's setting, and the name upstream's success page gives it. */
const UNSUBSCRIBERS = {
  missed_messages: { setting: 'enable_offline_email_notifications', name: 'missed messages' },
  digest: { setting: 'enable_digest_emails', name: 'digest' },
} as const;

/**
 * Follows a one-click unsubscribe link of the organization `realmId`: the type's display name once
 * the user's setting is off (sending `user_settings` update as any change does), undefined when
 * the type or token is unknown, of another organization, or of a deactivated user (nothing changed).
 */
export const doUnsubscribeByLink = async (realmId: number, type: string, token: string): Promise<string | undefined> => {
  if (!Object.hasOwn(UNSUBSCRIBERS, type)) return undefined;
  const found = await missedEmailsStore.getUnsubscribeToken(token);
  if (!found || found.type !== type || found.realmId !== realmId) return undefined;
  const user = await usersStore.get(realmId, found.userId, { consistent: true });
  if (!user || !user.isActive) return undefined;
  const unsubscriber = UNSUBSCRIBERS[found.type];
  await doChangeUserSettings(user, { [unsubscriber.setting]: false });
  return unsubscriber.name;
};
