// The shapes shared by the event engine, the actions that emit events and the register flow.

/** An event as the API shows it, minus the queue-local `id` the engine assigns. */
export type ApiEvent = { type: string } & Record<string, unknown>;

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
};

/** Who receives an event: every user of the organization, or the listed users. */
export type Audience = 'realm' | { users: number[] };
