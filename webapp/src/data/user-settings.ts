// My personal settings (register's user_settings, then user_settings events) and the people I
// muted (muted_users): what the settings overlay changes, and what the app applies everywhere (the
// theme, 12 or 24 hour time, desktop notifications and their sound).
import type { NotificationSettings, RegisterResponse, ServerEvent } from '../api/types';

export type UserSettings = {
  values: Readonly<Record<string, unknown>>;
  mutedUsers: readonly { id: number; timestamp: number }[];
};

/** Upstream's defaults for the notification settings, where register leaves one out. */
const NOTIFICATION_DEFAULTS: Required<NotificationSettings> = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  pm_content_in_desktop_notifications: true,
  notification_sound: 'zulip',
};

export const userSettingsFromRegister = (register: RegisterResponse): UserSettings => ({
  values: { ...NOTIFICATION_DEFAULTS, ...register.user_settings },
  mutedUsers: register.muted_users ?? [],
});

type SettingsEvent = Extract<ServerEvent, { type: 'user_settings' | 'muted_users' }>;

export const applyUserSettingsEvent = (settings: UserSettings, event: SettingsEvent): UserSettings =>
  event.type === 'muted_users'
    ? { ...settings, mutedUsers: event.muted_users }
    : { ...settings, values: { ...settings.values, [event.property]: event.value } };

/** Upstream's color_scheme: 1 as the system, 2 dark, 3 light. */
export const themeOf = (settings: UserSettings): 'auto' | 'dark' | 'light' => {
  const scheme = settings.values.color_scheme;
  return scheme === 2 ? 'dark' : scheme === 3 ? 'light' : 'auto';
};

/** The settings browser notifications follow. */
export const notificationSettings = (settings: UserSettings): Required<NotificationSettings> =>
  Object.fromEntries(Object.keys(NOTIFICATION_DEFAULTS).map((name) => [name, settings.values[name]])) as Required<NotificationSettings>;

export const twentyFourHour = (settings: UserSettings): boolean => settings.values.twenty_four_hour_time === true;
