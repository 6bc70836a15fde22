// The wire format of what the app reads from /json/: register's state, messages and the events it
// registers for, as upstream's API documents them (snake_case, as sent). Only the fields the app uses.

export type UserRef = { id: number; email: string; full_name: string };

export type Reaction = { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number };

export type Message = {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  content: string;
  timestamp: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | UserRef[];
  flags: string[];
  reactions: Reaction[];
  last_edit_timestamp?: number;
  last_moved_timestamp?: number;
  submessages?: Submessage[];
  is_me_message?: boolean;
};

export type Submessage = { id: number; message_id: number; sender_id: number; msg_type: string; content: string };

export type Subscription = {
  stream_id: number;
  name: string;
  color: string;
  is_muted: boolean;
  invite_only: boolean;
  description: string;
  pin_to_top?: boolean;
  subscriber_count?: number;
};

/** A channel's permission settings, as GET /streams and register send them (upstream's names). */
export type ChannelPermissionFields = {
  history_public_to_subscribers?: boolean;
  folder_id?: number | null;
  can_send_message_group?: GroupSetting;
  can_add_subscribers_group?: GroupSetting;
  can_remove_subscribers_group?: GroupSetting;
  can_administer_channel_group?: GroupSetting;
};

export type Stream = {
  stream_id: number;
  name: string;
  invite_only: boolean;
  description: string;
  is_archived?: boolean;
} & ChannelPermissionFields;

export type User = {
  user_id: number;
  email: string;
  full_name: string;
  avatar_url?: string | null;
  is_bot: boolean;
  is_active: boolean;
  role?: number;
  delivery_email?: string | null;
  timezone?: string;
  /** The custom profile fields' values, by field id. */
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
};

/** A custom profile field (upstream's types: 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 person, 7 external account, 8 pronouns). */
export type ProfileField = {
  id: number;
  name: string;
  type: number;
  hint: string;
  /** JSON: a list's options ({"0": {"text", "order"}}), an external account's {"subtype"}; else empty. */
  field_data: string;
  order?: number;
  display_in_profile_summary?: boolean;
};

export type Linkifier = { id: number; pattern: string; url_template: string };

export type RealmEmoji = { id: string; name: string; source_url: string; deactivated: boolean; author_id?: number | null };

/** The part of register's user_settings the app applies (desktop notifications and their sound). */
export type NotificationSettings = {
  enable_desktop_notifications?: boolean;
  enable_sounds?: boolean;
  pm_content_in_desktop_notifications?: boolean;
  notification_sound?: string;
};

export type PresenceTimes = { active_timestamp?: number; idle_timestamp?: number };

export type UserStatus = { away?: boolean; status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string };

export type UnreadMsgs = {
  count: number;
  pms: { other_user_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
};

export type UserTopic = { stream_id: number; topic_name: string; visibility_policy: number };

export type RegisterResponse = {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  email: string;
  full_name: string;
  realm_name: string;
  realm_uri?: string;
  max_message_id: number;
  unread_msgs: UnreadMsgs;
  subscriptions: Subscription[];
  streams?: Stream[];
  realm_users: User[];
  /** Deactivated users (register's realm_user category). */
  realm_non_active_users?: User[];
  presences?: Record<string, PresenceTimes>;
  server_presence_offline_threshold_seconds?: number;
  server_presence_ping_interval_seconds?: number;
  user_status?: Record<string, UserStatus>;
  user_topics?: UserTopic[];
  recent_private_conversations?: { max_message_id: number; user_ids: number[] }[];
  server_timestamp?: number;
  realm_allow_message_editing?: boolean;
  realm_message_content_edit_limit_seconds?: number | null;
  realm_message_content_delete_limit_seconds?: number | null;
  realm_move_messages_within_stream_limit_seconds?: number | null;
  realm_move_messages_between_streams_limit_seconds?: number | null;
  realm_enable_read_receipts?: boolean;
  realm_user_groups?: UserGroup[];
  realm_emoji?: Record<string, RealmEmoji>;
  realm_linkifiers?: Linkifier[];
  custom_profile_fields?: ProfileField[];
  realm_default_streams?: number[];
  drafts?: Draft[];
  realm_can_mention_many_users_group?: GroupSetting;
  realm_description?: string;
  realm_can_create_public_channel_group?: GroupSetting;
  realm_can_invite_users_group?: GroupSetting;
  realm_can_add_custom_emoji_group?: GroupSetting;
  max_file_upload_size_mib?: number;
  user_settings?: Record<string, unknown> & NotificationSettings;
  muted_users?: { id: number; timestamp: number }[];
};

export type Draft = { id: number; type: '' | 'stream' | 'private'; to: number[]; topic: string; content: string; timestamp: number };

/** A group setting: a group's id, or an anonymous group. */
export type GroupSetting = number | { direct_members: number[]; direct_subgroups: number[] };

export type UserGroup = {
  id: number;
  name: string;
  members: number[];
  direct_subgroup_ids?: number[];
  is_system_group?: boolean;
  deactivated?: boolean;
};

/** A message's recipient in update_message_flags' message_details (removing `read`). */
export type MessageDetails = { type: 'private' | 'stream'; mentioned?: boolean; user_ids?: number[]; stream_id?: number; topic?: string };

/** The events the app registers for (register's event_types); every other type is ignored. */
export type ServerEvent = { id: number } & (
  | { type: 'heartbeat' }
  | { type: 'invites_changed' }
  | { type: 'realm_linkifiers'; realm_linkifiers: Linkifier[] }
  | { type: 'custom_profile_fields'; fields: ProfileField[] }
  | { type: 'default_streams'; default_streams: number[] }
  | { type: 'message'; message: Omit<Message, 'flags'>; flags: string[]; local_message_id?: string }
  | {
      type: 'update_message';
      message_id: number;
      message_ids: number[];
      rendered_content?: string;
      edit_timestamp: number;
      stream_id?: number;
      new_stream_id?: number;
      orig_subject?: string;
      subject?: string;
      flags?: string[];
      rendering_only?: boolean;
    }
  | { type: 'delete_message'; message_ids?: number[]; message_id?: number }
  | {
      type: 'reaction';
      op: 'add' | 'remove';
      message_id: number;
      user_id: number;
      emoji_name: string;
      emoji_code: string;
      reaction_type: string;
    }
  | {
      type: 'update_message_flags';
      op: 'add' | 'remove';
      flag: string;
      messages: number[];
      all?: boolean;
      message_details?: Record<string, MessageDetails>;
    }
  | { type: 'subscription'; op: 'add'; subscriptions: Subscription[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: { stream_id: number }[] }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove' }
  | { type: 'stream'; op: 'create'; streams: Stream[] }
  | { type: 'stream'; op: 'delete'; streams?: { stream_id: number }[]; stream_ids?: number[] }
  | {
      type: 'stream';
      op: 'update';
      stream_id: number;
      property: string;
      value: unknown;
      /** Sent with invite_only (upstream's privacy event). */
      history_public_to_subscribers?: boolean;
    }
  | { type: 'realm_user'; op: 'add'; person: User }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number } }
  | {
      type: 'realm_user';
      op: 'update';
      person: { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } } & Partial<User>;
    }
  | { type: 'presence'; presences?: Record<string, PresenceTimes> }
  | {
      type: 'typing';
      op: 'start' | 'stop';
      message_type: 'direct' | 'stream';
      sender: { user_id: number };
      recipients?: { user_id: number }[];
      stream_id?: number;
      topic?: string;
    }
  | ({ type: 'user_status'; user_id: number } & UserStatus)
  | { type: 'user_topic'; stream_id: number; topic_name: string; visibility_policy: number }
  | { type: 'submessage'; message_id: number; submessage_id: number; sender_id: number; msg_type: string; content: string }
  | { type: 'muted_users'; muted_users: { id: number; timestamp: number }[] }
  | { type: 'drafts'; op: 'add'; drafts: Draft[] }
  | { type: 'drafts'; op: 'update'; draft: Draft }
  | { type: 'drafts'; op: 'remove'; draft_id: number }
  | { type: 'user_group'; op: 'add'; group: UserGroup }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'update'; group_id: number; data: Partial<UserGroup> }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] }
  | { type: 'realm'; op: 'update'; property: string; value: unknown }
  | { type: 'realm'; op: 'update_dict'; property: string; data: Record<string, unknown> }
  | { type: 'realm_emoji'; op: 'update'; realm_emoji: Record<string, RealmEmoji> }
  | { type: 'user_settings'; op: 'update'; property: string; value: unknown }
);
