import { BadRequestError, RateLimitedError } from '../../errors';
import { sendEvent } from '../../events/send';
import { languageName } from '../../models/language';
import { realmProperty, type Realm } from '../../models/realm';
import { checkFullName, isAdmin, PASSWORD_LENGTH, type User } from '../../models/user';
import { AVAILABLE_NOTIFICATION_SOUNDS, settingsOfUser, USER_ITEM_SETTINGS, type ChangeableSetting } from '../../models/user-settings';
import { hashPassword } from '../../passwords';
import * as passwordsStore from '../../store/passwords';
import * as usersStore from '../../store/users';
import { checkPassword } from '../way-in/password-login';
import { doChangeFullName } from './update';

export type SettingValue = boolean | number | string;

export type ChangeSettingsRequest = {
  /** Only the settings the client sent (already type-checked). */
  settings: Partial<Record<ChangeableSetting, SettingValue>>;
  email: string | undefined;
  /** A new display name (upstream's full_name), or undefined to leave it. */
  fullName?: string;
  oldPassword: string;
  newPassword: string;
};

const MAX_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

const isTimezone = (name: string): boolean => {
  if (name === '') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};

/** The checks upstream makes beyond the parameter types, in its order (also for the organization's defaults). */
export const checkSettingValues = (settings: ChangeSettingsRequest['settings']): void => {
  const { default_language: language, notification_sound: sound, email_notifications_batching_period_seconds: period, timezone } = settings;
  if (language !== undefined && languageName(String(language)) === undefined) throw new BadRequestError('Invalid default_language');
  if (sound !== undefined && sound !== 'none' && !AVAILABLE_NOTIFICATION_SOUNDS.includes(String(sound))) {
    throw new BadRequestError(`Invalid notification sound '${sound}'`);
  }
  if (period !== undefined && (Number(period) <= 0 || Number(period) > MAX_BATCHING_PERIOD_SECONDS)) {
    throw new BadRequestError(`Invalid email batching period: ${period} seconds`);
  }
  if (timezone !== undefined && !isTimezone(String(timezone))) throw new BadRequestError('Invalid timezone');
};

/** Upstream's password change: the old password (rate limited as a login), then the new one's strength. */
const checkChangePassword = async (user: User, realm: Realm, oldPassword: string, newPassword: string): Promise<void> => {
  try {
    if (!(await checkPassword(realm, user.email, user, oldPassword))) throw new BadRequestError('Wrong password!');
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    const seconds = Math.floor(Number(error.data['retry-after']));
    throw new BadRequestError(`You're making too many attempts! Try again in ${seconds} seconds.`);
  }
  // Upstream also asks zxcvbn for at least password_min_guesses guesses; this service checks length only.
  if (newPassword.length < PASSWORD_LENGTH.min || newPassword.length > PASSWORD_LENGTH.max)
    throw new BadRequestError('New password is too weak!');
};

/**
 * PATCH /settings. Checks, in upstream's order: the values beyond their types (language,
 * notification sound, email batching period, time zone), then a password change (the old
 * password, rate limited like a login; the new one's length), then an email change, which this
 * service cannot confirm by email yet and refuses with upstream's message. Then writes the
 * password hash and the changed settings with their events (doChangeUserSettings).
 */
export const checkChangeSettings = async (user: User, realm: Realm, req: ChangeSettingsRequest): Promise<void> => {
  checkSettingValues(req.settings);
  if (req.newPassword !== '') await checkChangePassword(user, realm, req.oldPassword, req.newPassword);
  const email = req.email?.trim();
  if (email !== undefined && email !== '' && email.toLowerCase() !== user.email.toLowerCase()) {
    // Upstream's answer when email changes are disabled; changing needs a confirmation email.
    throw new BadRequestError('Email address changes are disabled in this organization.');
  }
  let fullName: string | undefined;
  if (req.fullName !== undefined && req.fullName !== user.fullName) {
    // Upstream's name_changes_disabled: an administrator may still change their own.
    if (realmProperty(realm, 'name_changes_disabled') && !isAdmin(user))
      throw new BadRequestError('Name changes are disabled in this organization.');
    fullName = checkFullName(req.fullName);
  }

  // Every check passed: nothing is written before that.
  if (req.newPassword !== '') await passwordsStore.putPasswordHash(user.id, await hashPassword(req.newPassword));
  if (fullName !== undefined) await doChangeFullName(realm, user, fullName);
  await doChangeUserSettings(user, req.settings);
};

/**
 * Sets the settings whose value differs from the user's (settings other code acts on as user
 * attributes, the rest in the user's settings map), then sends one `user_settings` update event
 * per changed setting to the user (with `language_name` for default_language), and for a time
 * zone a `realm_user` update to the organization. No validation here.
 */
export const doChangeUserSettings = async (user: User, settings: Partial<Record<ChangeableSetting, SettingValue>>): Promise<void> => {
  const current = settingsOfUser(user) as Record<string, SettingValue>;
  const changed = Object.entries(settings).filter(([name, value]) => value !== undefined && current[name] !== value) as [
    ChangeableSetting,
    SettingValue,
  ][];
  const onUser: Record<string, SettingValue> = {};
  const inMap: Record<string, SettingValue> = {};
  for (const [name, value] of changed) {
    if (name in USER_ITEM_SETTINGS) onUser[USER_ITEM_SETTINGS[name as keyof typeof USER_ITEM_SETTINGS]] = value;
    else inMap[name] = value;
  }
  await usersStore.update(user.realmId, user.id, onUser);
  await usersStore.updateSettings(user.realmId, user.id, inMap);
  for (const [name, value] of changed) {
    const extra = name === 'default_language' ? { language_name: languageName(String(value)) } : {};
    await sendEvent(user.realmId, { type: 'user_settings', op: 'update', property: name, value, ...extra }, { users: [user.id] });
    if (name === 'timezone') {
      await sendEvent(user.realmId, { type: 'realm_user', op: 'update', person: { user_id: user.id, timezone: String(value) } }, 'realm');
    }
  }
};
