// The events of the API, one type per event type and op as upstream's OpenAPI file describes them
// (only those this service emits), so that an action cannot emit a misspelled or missing field, and
// the shapes of the queues that receive them. Lives under lib/models so that lib/store (which keeps
// events and queues) and lib/events (which sends and delivers them) both import it downwards.
import type { ApiAttachment } from './attachment';
import type { ApiDraft } from './draft';
import type { LegacyClientPresence, ModernPresence } from './presence';
import type { ReactionType } from './reaction';
import type { ApiNavigationView, ApiSavedSnippet } from './user-data';

/** An API object whose fields a model serializer defines (a user group, a linkifier, a reminder). */
type ApiObject = Record<string, unknown>;

export type HeartbeatEvent = { type: 'heartbeat' };

export type AlertWordsEvent = { type: 'alert_words'; alert_words: string[] };

export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: ApiDraft[] }
  | { type: 'drafts'; op: 'update'; draft: ApiDraft }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export type SavedSnippetsEvent =
  | { type: 'saved_snippets'; op: 'add'; saved_snippet: ApiSavedSnippet }
  | { type: 'saved_snippets'; op: 'update'; saved_snippet: ApiSavedSnippet }
  | { type: 'saved_snippets'; op: 'remove'; saved_snippet_id: number };

/** A navigation view added, changed (`data`: what the request sent) or removed. */
export type NavigationViewEvent =
  | { type: 'navigation_view'; op: 'add'; navigation_view: ApiNavigationView }
  | { type: 'navigation_view'; op: 'update'; fragment: string; data: { name?: string; is_pinned?: boolean } }
  | { type: 'navigation_view'; op: 'remove'; fragment: string };

/** `upload_space_used`: the organization's uploaded bytes after the change. */
export type AttachmentEvent =
  | { type: 'attachment'; op: 'add' | 'update'; attachment: ApiAttachment; upload_space_used: number }
  | { type: 'attachment'; op: 'remove'; attachment: { id: number }; upload_space_used: number };

export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ApiObject[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ApiObject }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };
export type RemindersEvent =
  { type: 'reminders'; op: 'add'; reminders: ApiObject[] } | { type: 'reminders'; op: 'remove'; reminder_id: number };

export type InvitesChangedEvent = { type: 'invites_changed' };

/**
 * An organization setting changed: `update` with the setting and its new value, or, for the
 * settings upstream has always sent that way (allow_message_editing,
 * message_content_edit_limit_seconds), `update_dict` with `property: 'default'` and the changed
 * settings in `data`.
 */
export type RealmEvent =
  | { type: 'realm'; op: 'update'; property: string; value: unknown }
  | { type: 'realm'; op: 'update_dict'; property: 'default'; data: Record<string, unknown> }
  /** The icon or a logo changed: its URL and source (icon_url/icon_source, logo_url/logo_source, night_logo_url/night_logo_source). */
  | { type: 'realm'; op: 'update_dict'; property: 'icon' | 'logo' | 'night_logo'; data: Record<string, string> }
  | { type: 'realm'; op: 'deactivated'; realm_id: number };

/** A setting new accounts of the organization start with changed (PATCH /realm/user_settings_defaults). */
export type RealmUserSettingsDefaultsEvent = { type: 'realm_user_settings_defaults'; op: 'update'; property: string; value: unknown };

export type RealmLinkifiersEvent = { type: 'realm_linkifiers'; realm_linkifiers: ApiObject[] };

/** The organization's code playgrounds changed: every playground. */
export type RealmPlaygroundsEvent = { type: 'realm_playgrounds'; realm_playgrounds: ApiObject[] };
/**
 * A channel folder was created (`channel_folder`: the folder), changed (`data`: the changed
 * properties) or the folders reordered (`order`: their ids in the new order). To everyone in the organization.
 */
export type ChannelFolderEvent =
  | { type: 'channel_folder'; op: 'add'; channel_folder: ApiObject }
  | { type: 'channel_folder'; op: 'update'; channel_folder_id: number; data: ApiObject }
  | { type: 'channel_folder'; op: 'reorder'; order: number[] };
/** The organization's data exports (lib/models/realm-export.ts ApiRealmExport), to its administrators. */
export type RealmExportEvent = { type: 'realm_export'; exports: ApiObject[] };

/** The organization's custom profile fields changed: every field, in display order. */
export type CustomProfileFieldsEvent = { type: 'custom_profile_fields'; fields: ApiObject[] };

/** An allowed email domain was added, changed or removed. */
export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: { domain: string; allow_subdomains: boolean } }
  | { type: 'realm_domains'; op: 'remove'; domain: string };
/**
 * A custom emoji was added or deactivated. Stored once as the legacy `update` with every emoji of
 * the organization, carrying in `change` what queues with the individual_emoji_changes capability
 * get instead (`add` with the new emoji, `update_one` with the changed fields); `change` never
 * reaches a client (lib/events/filters/realm-emoji.ts).
 */
export type RealmEmojiEvent =
  | {
      type: 'realm_emoji';
      op: 'update';
      realm_emoji: Record<string, ApiObject>;
      change?: { op: 'add'; emoji: ApiObject } | { op: 'update_one'; emoji_id: string; data: { deactivated: boolean } };
    }
  | { type: 'realm_emoji'; op: 'add'; emoji: ApiObject }
  | { type: 'realm_emoji'; op: 'update_one'; emoji_id: string; data: { deactivated: boolean } };

export type RealmUserUpdateEvent = {
  type: 'realm_user';
  op: 'update';
  person:
    | { user_id: number; custom_profile_field: { id: number; value: string | null; rendered_value?: string } }
    | { user_id: number; timezone: string }
    | { user_id: number; avatar_source: 'G' | 'U'; avatar_url: string; avatar_url_medium: string; avatar_version: number }
    | { user_id: number; full_name: string }
    | { user_id: number; role: number }
    | { user_id: number; is_active: boolean }
    | { user_id: number; bot_owner_id: number };
};

/**
 * Bots for those who administer them (feature level 474): `add` when a bot is created or comes
 * into a non-administrator's care, `delete` when it leaves it (a new owner), `update` when an
 * outgoing webhook bot's service changes.
 */
export type RealmBotEvent =
  | {
      type: 'realm_bot';
      op: 'add';
      bot: {
        user_id: number;
        default_sending_stream: string | null;
        default_events_register_stream: string | null;
        default_all_public_streams: boolean;
        services: BotServiceObject[];
      };
    }
  | { type: 'realm_bot'; op: 'update'; bot: { user_id: number; services: BotServiceObject[] } }
  | { type: 'realm_bot'; op: 'delete'; bot: { user_id: number } };

/** An outgoing webhook bot's service as events and register show it. */
type BotServiceObject = { base_url: string; interface: number; token: string };

/** A new user (upstream's notify_created_user): the user object as realm_users shapes it. */
export type RealmUserAddEvent = { type: 'realm_user'; op: 'add'; person: ApiObject };

/** The organization's default channels changed: all their ids (feature level 330). */
export type DefaultStreamsEvent = { type: 'default_streams'; default_streams: number[] };

/** One changed user setting; `language_name` comes with `default_language`. */
export type UserSettingsEvent = { type: 'user_settings'; op: 'update'; property: string; value: unknown; language_name?: string };

/** A user's new status: only the fields that changed. */
export type UserStatusEvent = {
  type: 'user_status';
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
};

/** Someone started or stopped typing, in a direct conversation or a channel topic. */
export type TypingEvent = { type: 'typing'; op: 'start' | 'stop'; sender: { user_id: number; email: string } } & (
  | { message_type: 'direct'; recipients: { user_id: number; email: string }[] }
  | { message_type: 'stream'; stream_id: number; topic: string }
);

/** Someone is typing in an edit of their message (POST /messages/{message_id}/typing). */
export type TypingEditMessageEvent = {
  type: 'typing_edit_message';
  op: 'start' | 'stop';
  sender_id: number;
  message_id: number;
  recipient: { type: 'channel'; channel_id: number; topic: string } | { type: 'direct'; user_ids: number[] };
};

export type DeviceEvent =
  | { type: 'device'; op: 'add' | 'remove'; device_id: number }
  | {
      type: 'device';
      op: 'update';
      device_id: number;
      push_key_id?: number;
      push_token_id?: string | null;
      pending_push_token_id?: string | null;
      push_token_last_updated_timestamp?: number;
      push_registration_error_code?: string | null;
    };

/**
 * A presence event as sent: every shape at once; lib/events/filters/presence.ts gives each queue
 * one of them (modern `presences`, or the legacy fields with or without `email`).
 */
export type PresenceEvent = {
  type: 'presence';
  presences?: Record<string, ModernPresence>;
  user_id?: number;
  email?: string;
  server_timestamp?: number;
  presence?: { website: LegacyClientPresence };
};

export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: ApiObject; for_reactivation?: boolean }
  /** `deactivated` (internal, removed before delivery): the group's state when it was renamed. */
  | { type: 'user_group'; op: 'update'; group_id: number; data: Record<string, unknown>; deactivated?: boolean }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'remove'; group_id: number };

/**
 * A new message, with the receiving user's own flags, and `local_message_id` for the sending
 * client's queue. The other fields are internal (removed by the message filter,
 * lib/events/filters/message.ts, which adapts the message to each queue): the raw Markdown, the
 * sender's queue and local id, and on the version of a public channel's message for users who did
 * not receive it, that only their `all_public_streams` queues take it.
 */
export type MessageEvent = {
  type: 'message';
  message: ApiObject;
  flags: string[];
  local_message_id?: string;
  raw_content?: string;
  sender_queue_id?: string;
  local_id?: string;
  all_public_streams_copy?: boolean;
};

/**
 * A message's content, topic or channel changed (upstream's do_update_message), with the receiving
 * user's own `flags` (so it is sent per recipient). `stream_id`/`stream_name` name the source
 * channel; the topic fields come with a topic change, the content fields with a content change.
 */
export type UpdateMessageEvent = {
  type: 'update_message';
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  rendering_only: boolean;
  flags: string[];
  stream_name?: string;
  stream_id?: number;
  new_stream_id?: number;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
  orig_subject?: string;
  subject?: string;
  topic_links?: { text: string; url: string }[];
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
};

/**
 * Messages of one conversation were deleted: as sent, `message_ids`; lib/events/filters/delete-message.ts
 * gives queues without the bulk_message_deletion capability `message_id` instead. `topic` is the
 * lowercased topic, as upstream groups deletions.
 */
export type DeleteMessageEvent = {
  type: 'delete_message';
  message_ids: number[];
  message_id?: number;
  message_type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  /**
   * Internal, never delivered: which queues the stored event is for. A deletion of several
   * messages is stored twice, once whole for queues with bulk_message_deletion (`bulk`) and once
   * per message for the others (`single`), since one queue entry holds one event.
   */
  for_queues?: 'bulk' | 'single';
};

/**
 * One property of a channel changed. A description change also carries `rendered_description`; a
 * privacy change (`invite_only`) carries the channel's `history_public_to_subscribers` and
 * `is_web_public` alongside. `is_archived` changes go only to queues with the archived_channels
 * capability (lib/events/filters/stream.ts).
 */
export type StreamUpdateEvent = {
  type: 'stream';
  op: 'update';
  stream_id: number;
  name: string;
  property: string;
  value: unknown;
  rendered_description?: string;
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
};

/**
 * Channels the receivers can no longer see. `for_archiving` (stored only, removed by the filter):
 * sent because the channel was archived, so only queues without archived_channels get it.
 */
export type StreamDeleteEvent = {
  type: 'stream';
  op: 'delete';
  streams: { stream_id: number }[];
  stream_ids: number[];
  for_archiving?: boolean;
};

/** A reaction added to or removed from a message (to everyone who can see the message). */
export type ReactionEvent = {
  type: 'reaction';
  op: 'add' | 'remove';
  user_id: number;
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
};
/** A submessage added to a message (a poll vote, a checked task): to everyone who holds a row of it. */
export type SubmessageEvent = {
  type: 'submessage';
  msg_type: string;
  message_id: number;
  submessage_id: number;
  sender_id: number;
  content: string;
};
/** A change of subscriptions: the user's own (add, remove, update) or other users' (peer_*). */
export type SubscriptionEvent =
  | { type: 'subscription'; op: 'add'; subscriptions: ApiObject[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: { stream_id: number; name: string }[] }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] };

/**
 * A channel became visible to the receivers (created, or newly accessible). `for_unarchiving`
 * (stored only, removed by the filter): sent because the channel was unarchived, so only queues
 * without archived_channels (which never saw it archived) get it.
 */
export type StreamEvent = { type: 'stream'; op: 'create'; streams: ApiObject[]; for_unarchiving?: boolean };

/** A topic's visibility policy changed for the receiving user. */
export type UserTopicEvent = { type: 'user_topic'; stream_id: number; topic_name: string; last_updated: number; visibility_policy: number };

/** The legacy list of muted topics: [channel name, topic, time muted]. */
export type MutedTopicsEvent = { type: 'muted_topics'; muted_topics: [string, string, number][] };
/** The receiving user's whole list of muted users, after a mute or an unmute. */
export type MutedUsersEvent = { type: 'muted_users'; muted_users: { id: number; timestamp: number }[] };
/** What a client needs to put a message marked unread back into its unread counts. */
export type UnreadMessageDetails =
  | { type: 'private'; user_ids: number[]; mentioned?: true }
  | { type: 'stream'; stream_id: number; topic: string; unmuted_stream_msg: boolean; mentioned?: true };

/** A personal flag changed on some of the user's messages (`operation` is upstream's deprecated copy of `op`). */
export type UpdateMessageFlagsEvent =
  | { type: 'update_message_flags'; op: 'add'; operation: 'add'; flag: string; messages: number[]; all: boolean }
  | {
      type: 'update_message_flags';
      op: 'remove';
      operation: 'remove';
      flag: string;
      messages: number[];
      all: boolean;
      /** Only when `read` is removed, keyed by message id. */
      message_details?: Record<string, UnreadMessageDetails>;
    };

/** An event as the API shows it, minus the queue-local `id` the engine assigns. */
export type ApiEvent =
  | HeartbeatEvent
  | AlertWordsEvent
  | DraftsEvent
  | SavedSnippetsEvent
  | NavigationViewEvent
  | AttachmentEvent
  | RemindersEvent
  | ScheduledMessagesEvent
  | InvitesChangedEvent
  | RealmEvent
  | RealmUserSettingsDefaultsEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | ChannelFolderEvent
  | RealmExportEvent
  | CustomProfileFieldsEvent
  | RealmDomainsEvent
  | RealmEmojiEvent
  | RealmUserUpdateEvent
  | RealmUserAddEvent
  | RealmBotEvent
  | DefaultStreamsEvent
  | UserSettingsEvent
  | UserStatusEvent
  | DeviceEvent
  | TypingEvent
  | TypingEditMessageEvent
  | PresenceEvent
  | UserGroupEvent
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | StreamUpdateEvent
  | StreamDeleteEvent
  | ReactionEvent
  | SubmessageEvent
  | SubscriptionEvent
  | StreamEvent
  | UserTopicEvent
  | MutedTopicsEvent
  | MutedUsersEvent
  | UpdateMessageFlagsEvent;

export type EventType = ApiEvent['type'];

/** Client capabilities declared at POST /register (all optional booleans; absent means false). */
export type ClientCapabilities = {
  notification_settings_null?: boolean;
  bulk_message_deletion?: boolean;
  user_avatar_url_field_optional?: boolean;
  stream_typing_notifications?: boolean;
  user_settings_object?: boolean;
  linkifier_url_template?: boolean;
  user_list_incomplete?: boolean;
  include_deactivated_groups?: boolean;
  archived_channels?: boolean;
  empty_topic_name?: boolean;
  simplified_presence_events?: boolean;
  individual_emoji_changes?: boolean;
};

/** What the engine keeps of a queue: its owner and the filters that decide what it receives. */
export type QueueDescriptor = {
  queueId: string;
  realmId: number;
  userId: number;
  /** null: every event type. */
  eventTypes: string[] | null;
  capabilities: ClientCapabilities;
  narrow: [string, string][];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** The presence format the queue asked for at register (slim_presence). */
  slimPresence: boolean;
  timeoutSecs: number;
  /** The SHA-256 of the Basic credentials that registered the queue (lib/http/auth.ts credentialOf), if any. */
  credential?: string;
};

/** Who receives an event: every user of the organization, the listed users, or everyone of the organization but the listed ones. */
export type Audience = 'realm' | { users: number[] } | { everyoneBut: number[] };
