// What the organization allows (editing, deleting and moving within time limits, read receipts),
// its custom emoji, and my notification settings: from register, then the realm, realm_emoji and
// user_settings events.
import type { RealmEmoji, RegisterResponse, ServerEvent, UserSettings } from '../api/types';

export type Settings = {
  allowEditing: boolean;
  /** Seconds after sending; null is no limit. */
  editLimit: number | null;
  deleteLimit: number | null;
  moveWithinLimit: number | null;
  moveBetweenLimit: number | null;
  readReceipts: boolean;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  user: Required<UserSettings>;
};

const USER_DEFAULTS: Required<UserSettings> = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  pm_content_in_desktop_notifications: true,
  notification_sound: 'zulip',
};

export const settingsFromRegister = (register: RegisterResponse): Settings => ({
  allowEditing: register.realm_allow_message_editing ?? true,
  editLimit: register.realm_message_content_edit_limit_seconds ?? null,
  deleteLimit: register.realm_message_content_delete_limit_seconds ?? null,
  moveWithinLimit: register.realm_move_messages_within_stream_limit_seconds ?? null,
  moveBetweenLimit: register.realm_move_messages_between_streams_limit_seconds ?? null,
  readReceipts: register.realm_enable_read_receipts ?? false,
  realmEmoji: register.realm_emoji ?? {},
  user: { ...USER_DEFAULTS, ...register.user_settings },
});

/** Register's realm_* names of the settings kept here. */
const REALM_KEYS: Record<string, keyof Settings> = {
  allow_message_editing: 'allowEditing',
  message_content_edit_limit_seconds: 'editLimit',
  message_content_delete_limit_seconds: 'deleteLimit',
  move_messages_within_stream_limit_seconds: 'moveWithinLimit',
  move_messages_between_streams_limit_seconds: 'moveBetweenLimit',
  enable_read_receipts: 'readReceipts',
};

type SettingsEvent = Extract<ServerEvent, { type: 'realm' | 'realm_emoji' | 'user_settings' }>;

export const applySettingsEvent = (settings: Settings, event: SettingsEvent): Settings => {
  switch (event.type) {
    case 'realm_emoji':
      return { ...settings, realmEmoji: event.realm_emoji };
    case 'user_settings':
      return event.property in USER_DEFAULTS ? { ...settings, user: { ...settings.user, [event.property]: event.value } } : settings;
    case 'realm': {
      const changes = event.op === 'update' ? { [event.property]: event.value } : event.data;
      const next = { ...settings } as Record<string, unknown>;
      for (const [name, value] of Object.entries(changes)) if (REALM_KEYS[name]) next[REALM_KEYS[name]] = value;
      return next as Settings;
    }
  }
};

/** Whether an action limited to `limit` seconds after sending is still open for a message. */
export const withinLimit = (limit: number | null, sentAt: number, nowSeconds: number): boolean =>
  limit === null || limit === 0 || nowSeconds - sentAt <= limit;
