// Editing, moving and deleting messages: the organization's edit settings with upstream's defaults,
// the time limits, resolve toggles and the stored edit history with what each reader may see of it
// (upstream's zerver/actions/message_edit.py, zerver/views/message_edit.py, zerver/lib/message.py).
// Pure: no I/O.
import type { EditHistoryVisibility, MessageEditSettings, Realm } from './realm';

export type { EditHistoryVisibility, MessageEditSettings } from './realm';

/** Upstream's defaults for a new organization. */
const DEFAULT_MESSAGE_EDIT_SETTINGS: MessageEditSettings = {
  allowMessageEditing: true,
  messageContentEditLimitSeconds: 600,
  messageContentDeleteLimitSeconds: 600,
  moveMessagesWithinStreamLimitSeconds: 604800,
  moveMessagesBetweenStreamsLimitSeconds: 604800,
  editHistoryVisibility: 'all',
};

/** The organization's edit settings: the stored ones over upstream's defaults. */
export const messageEditSettings = (realm: Realm): MessageEditSettings => ({
  ...DEFAULT_MESSAGE_EDIT_SETTINGS,
  ...(realm.messageEditSettings ?? {}),
});

/**
 * Seconds upstream adds to the edit and move limits: the web app lets a user start editing up
 * to 15 seconds before the limit, and the request may take a while to arrive. Deletes get none.
 */
export const EDIT_LIMIT_GRACE_SECONDS = 20;

/** Whether a message sent at `dateSent` is still within `limitSeconds` (+ grace) at `now`; a null limit never expires. */
export const withinTimeLimit = (dateSent: number, now: number, limitSeconds: number | null, graceSeconds: number): boolean =>
  limitSeconds === null || now - dateSent <= limitSeconds + graceSeconds;

export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** Whether changing `oldTopic` to `newTopic` only adds or removes the resolved prefix (upstream's resolve/unresolve). */
export const isResolveToggle = (oldTopic: string, newTopic: string): boolean =>
  newTopic === RESOLVED_TOPIC_PREFIX + oldTopic || oldTopic === RESOLVED_TOPIC_PREFIX + newTopic;

/** The propagate modes of a topic edit: this message, it and later ones of the topic, or the whole topic. */
export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;
export type PropagateMode = (typeof PROPAGATE_MODES)[number];

/**
 * One stored edit of a message (upstream's edit_history entry, snake_case as on the wire): who and
 * when, and the values before (and, for moves, after) the edit. Stored newest first.
 */
export type EditHistoryEntry = {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
};

const isMoveEntry = (entry: EditHistoryEntry): boolean => entry.prev_topic !== undefined || entry.prev_stream !== undefined;

/**
 * The `edit_history` a message object shows under the organization's policy: everything (`all`),
 * only the moves without their content fields (`moves`), or nothing (`none`: the field is absent).
 */
export const visibleEditHistory = (history: EditHistoryEntry[], visibility: EditHistoryVisibility): EditHistoryEntry[] | undefined => {
  if (visibility === 'none') return undefined;
  if (visibility === 'all') return history.map((entry) => ({ ...entry }));
  return history.filter(isMoveEntry).map(({ prev_content: _c, prev_rendered_content: _r, ...move }) => move);
};

/** The newest content edit's time (`last_edit_timestamp`), or undefined when the content was never edited. */
export const lastEditTimestamp = (history: EditHistoryEntry[]): number | undefined =>
  history.find((entry) => entry.prev_content !== undefined)?.timestamp;

/** The newest real move's time (`last_moved_timestamp`): a channel change, or a topic change that is not a resolve toggle. */
export const lastMovedTimestamp = (history: EditHistoryEntry[]): number | undefined =>
  history.find(
    (entry) => entry.prev_stream !== undefined || (entry.prev_topic !== undefined && !isResolveToggle(entry.prev_topic, entry.topic ?? '')),
  )?.timestamp;

/** A message's state as GET /messages/{id}/history reports each version. */
export type MessageVersion = {
  topic: string;
  content: string;
  renderedContent: string;
  senderId: number;
  dateSent: number;
  streamId: number | null;
};

/** One snapshot of GET /messages/{message_id}/history (upstream's shape). */
export type HistorySnapshot = {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  user_id: number | null;
  timestamp: number;
};

/**
 * Upstream's fill_edit_history_entries: walking the stored history from the newest edit back, each
 * snapshot gets the topic and content the message had right after that edit, and the original
 * message ends the list; returned oldest first. `content_html_diff` is the new rendered content
 * (upstream marks the differences with spans; clients show it as the edited version).
 */
export const historySnapshots = (current: MessageVersion, history: EditHistoryEntry[]): HistorySnapshot[] => {
  let topic = current.topic;
  let content = current.content;
  let rendered = current.renderedContent;
  let stream = current.streamId;
  const snapshots: HistorySnapshot[] = [];
  for (const entry of history) {
    const snapshot: HistorySnapshot = { topic, content, rendered_content: rendered, user_id: entry.user_id, timestamp: entry.timestamp };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_stream !== undefined && stream !== null) {
      snapshot.stream = stream;
      snapshot.prev_stream = entry.prev_stream;
      stream = entry.prev_stream;
    }
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      snapshot.content_html_diff = rendered;
      content = entry.prev_content;
      rendered = entry.prev_rendered_content ?? '';
    }
    snapshots.push(snapshot);
  }
  snapshots.push({ topic, content, rendered_content: rendered, user_id: current.senderId, timestamp: current.dateSent });
  return snapshots.reverse();
};
