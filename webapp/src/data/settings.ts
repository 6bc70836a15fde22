// What the organization allows (editing, deleting and moving within time limits, read receipts,
// who may create channels, invite and add emoji), its description, its custom emoji (the one copy the emoji picker, reactions and compose's typeahead read),
// its linkifiers, default channels and custom profile fields: from register, then the realm,
// realm_emoji, realm_linkifiers, default_streams and custom_profile_fields events. My own settings are in user-settings.ts.
import type { GroupSetting, Linkifier, ProfileField, RealmEmoji, RegisterResponse, ServerEvent } from '../api/types';

/** The group settings organization settings show and change (register's realm_<name>, the realm event's <name>). */
export const PERMISSIONS = ['can_create_public_channel_group', 'can_invite_users_group', 'can_add_custom_emoji_group'] as const;

export type Permission = (typeof PERMISSIONS)[number];

export type Settings = {
  allowEditing: boolean;
  /** Seconds after sending; null is no limit. */
  editLimit: number | null;
  deleteLimit: number | null;
  moveWithinLimit: number | null;
  moveBetweenLimit: number | null;
  readReceipts: boolean;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  /** In matching order. */
  linkifiers: readonly Linkifier[];
  /** The default channels' ids (none for a guest, who is told nothing of them). */
  defaultChannels: readonly number[];
  /** In display order. */
  profileFields: readonly ProfileField[];
  description: string;
  permissions: Readonly<Partial<Record<Permission, GroupSetting>>>;
};

export const settingsFromRegister = (register: RegisterResponse): Settings => ({
  allowEditing: register.realm_allow_message_editing ?? true,
  editLimit: register.realm_message_content_edit_limit_seconds ?? null,
  deleteLimit: register.realm_message_content_delete_limit_seconds ?? null,
  moveWithinLimit: register.realm_move_messages_within_stream_limit_seconds ?? null,
  moveBetweenLimit: register.realm_move_messages_between_streams_limit_seconds ?? null,
  readReceipts: register.realm_enable_read_receipts ?? false,
  realmEmoji: register.realm_emoji ?? {},
  linkifiers: register.realm_linkifiers ?? [],
  defaultChannels: register.realm_default_streams ?? [],
  profileFields: register.custom_profile_fields ?? [],
  description: register.realm_description ?? '',
  permissions: Object.fromEntries(PERMISSIONS.map((name) => [name, register[`realm_${name}`]])),
});

/** Register's realm_* names of the settings kept here. */
const REALM_KEYS: Record<string, keyof Settings> = {
  allow_message_editing: 'allowEditing',
  message_content_edit_limit_seconds: 'editLimit',
  message_content_delete_limit_seconds: 'deleteLimit',
  move_messages_within_stream_limit_seconds: 'moveWithinLimit',
  move_messages_between_streams_limit_seconds: 'moveBetweenLimit',
  enable_read_receipts: 'readReceipts',
  description: 'description',
};

type SettingsEvent = Extract<
  ServerEvent,
  { type: 'realm' | 'realm_emoji' | 'realm_linkifiers' | 'default_streams' | 'custom_profile_fields' }
>;

export const applySettingsEvent = (settings: Settings, event: SettingsEvent): Settings => {
  switch (event.type) {
    case 'realm_emoji':
      return { ...settings, realmEmoji: event.realm_emoji };
    case 'realm_linkifiers':
      return { ...settings, linkifiers: event.realm_linkifiers };
    case 'default_streams':
      return { ...settings, defaultChannels: event.default_streams };
    case 'custom_profile_fields':
      return { ...settings, profileFields: event.fields };
    case 'realm': {
      const changes = event.op === 'update' ? { [event.property]: event.value } : event.data;
      const next = { ...settings } as Record<string, unknown>;
      for (const [name, value] of Object.entries(changes)) if (REALM_KEYS[name]) next[REALM_KEYS[name]] = value;
      const permissions = PERMISSIONS.filter((name) => name in changes);
      if (permissions.length > 0)
        next.permissions = { ...settings.permissions, ...Object.fromEntries(permissions.map((name) => [name, changes[name]])) };
      return next as Settings;
    }
  }
};

/** Whether an action limited to `limit` seconds after sending is still open for a message. */
export const withinLimit = (limit: number | null, sentAt: number, nowSeconds: number): boolean =>
  limit === null || limit === 0 || nowSeconds - sentAt <= limit;
