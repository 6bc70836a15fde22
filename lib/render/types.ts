// What the message renderer needs from the organization and what it reports back. The renderer
// reads nothing itself: the caller loads these (batched) and passes them in, so rendering is a
// pure function of the content and this input.

/** A user a mention may name: by full name (case-insensitive) or by id. */
export type RenderUser = { id: number; fullName: string; isActive: boolean };
/** A user group a group mention may name (case-insensitive). */
export type RenderGroup = { id: number; name: string; deactivated: boolean };
/** A channel the sender has content access to (only these are linked). */
export type RenderChannel = { id: number; name: string };
/** An active custom emoji of the organization: its name and its image's URL. */
export type RenderRealmEmoji = { name: string; sourceUrl: string };
/** A linkifier: an RE2/Python-syntax pattern and an RFC 6570 URL template. */
export type RenderLinkifier = { pattern: string; urlTemplate: string };

export type RenderInput = {
  users: readonly RenderUser[];
  groups: readonly RenderGroup[];
  channels: readonly RenderChannel[];
  /** The organization's linkifiers, already in matching order. */
  linkifiers: readonly RenderLinkifier[];
  /** The organization's active custom emoji (they take precedence over Unicode emoji of the same name). */
  realmEmoji?: readonly RenderRealmEmoji[];
  /** The latest message id the sender may see in a topic, by topicKey(channelId, topic). */
  latestInTopic?: ReadonlyMap<string, number>;
  /** The sender's `translate_emoticons` setting: emoticons such as `:)` become emoji. */
  translateEmoticons?: boolean;
  /**
   * The organization's URL (`https://chat.example.com`): links to its `#narrow/...` views render
   * relative (`#narrow/...`), as upstream renders them.
   */
  realmUrl?: string;
};

/** The key of latestInTopic: topics compare case-insensitively, as upstream. */
export const topicKey = (channelId: number, topic: string): string => `${channelId}\u0000${topic.toLowerCase()}`;

/** Everything the content refers to by name or id: what a caller must load before rendering. */
export type RenderReferences = {
  userNames: string[];
  userIds: number[];
  groupNames: string[];
  channelNames: string[];
  /** Channel-topic links, by channel name and topic as written. */
  topics: { channelName: string; topic: string }[];
  /** Names written as `:name:` (outside code): custom emoji the caller must load if there are any. */
  emojiNames: string[];
};

export type RenderResult = {
  html: string;
  /** Users mentioned loudly (not silent, active), in order of first mention. */
  mentionedUserIds: number[];
  /** Groups mentioned loudly (not silent, not deactivated); the caller expands their members. */
  mentionedGroupIds: number[];
  /** @**all**, @**everyone**, @**channel** or @**stream**, not silent. */
  channelWildcardMentioned: boolean;
  /** @**topic**, not silent. */
  topicWildcardMentioned: boolean;
  /** Whether the HTML contains a link (for the has:link narrow). */
  hasLink: boolean;
  /** The names and ids the content looked up, found or not. */
  references: RenderReferences;
};
