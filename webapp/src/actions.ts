// What the views ask of the server: open a view (its first unread), fetch older or newer
// messages, mark messages read (batched), send with a local echo, preview, star. Every request goes
// through api/client.ts; every state change through store.update.
import { ApiError, request } from './api/client';
import type { Message } from './api/types';
import { apiNarrow, sameNarrow, type FeedNarrow, type Narrow } from './data/narrow';
import { listFromAnswer, withNewer, withOlder, type MessagesAnswer } from './data/message-list';
import { addMessages, applyFlag } from './data/messages';
import { failLocal, type Destination } from './data/outbox';
import { nearAnchor } from './data/search';
import { markRead } from './data/unread';
import { currentQueueId } from './session';
import { current, hashOf, narrow, update } from './store';

const PAGE = { around: 50, more: 100 };

const fetchMessages = (
  view: FeedNarrow,
  anchor: string | number,
  before: number,
  after: number,
  includeAnchor = typeof anchor !== 'number',
): Promise<MessagesAnswer> =>
  request<MessagesAnswer>('GET', 'messages', {
    anchor: String(anchor),
    num_before: String(before),
    num_after: String(after),
    include_anchor: includeAnchor ? undefined : 'false',
    narrow: apiNarrow(view, current().me.userId),
    apply_markdown: 'true',
    client_gravatar: 'false',
  });

/** Shows a view: sets the hash (so Back and reload keep it) and loads its messages. */
export const goTo = (view: Narrow): void => {
  const hash = hashOf(view);
  if (window.location.hash !== hash) window.location.hash = hash;
  else void loadView(view);
};

/** Loads the messages around the view's first unread (the inbox has none to load). */
export const loadView = async (view: Narrow): Promise<void> => {
  narrow.value = view;
  if (view.kind === 'inbox') {
    update((state) => ({ ...state, list: null }));
    return;
  }
  update((state) => ({ ...state, list: { narrow: view, ids: [], foundOldest: false, foundNewest: false, loading: true } }));
  const answer = await fetchMessages(view, nearAnchor(view) ?? 'first_unread', PAGE.around, PAGE.around, true);
  if (!sameNarrow(narrow.peek(), view)) return;
  update((state) => ({ ...state, messages: addMessages(state.messages, answer.messages), list: listFromAnswer(view, answer) }));
};

/** Scrolling near an end fetches the next page there. */
const RETRY_AFTER_FAILURE_MS = 5000;
let lastFailure = 0;

export const fetchMore = async (direction: 'older' | 'newer'): Promise<void> => {
  const list = current().list;
  if (Date.now() - lastFailure < RETRY_AFTER_FAILURE_MS) return;
  if (!list || list.loading || list.ids.length === 0 || (direction === 'older' ? list.foundOldest : list.foundNewest)) return;
  update((state) => ({ ...state, list: state.list && { ...state.list, loading: true } }));
  const older = direction === 'older';
  const anchor = older ? list.ids[0]! : list.ids[list.ids.length - 1]!;
  try {
    const answer = await fetchMessages(list.narrow, anchor, older ? PAGE.more : 0, older ? 0 : PAGE.more);
    update((state) => {
      if (!state.list || !sameNarrow(state.list.narrow, list.narrow)) return state;
      return {
        ...state,
        messages: addMessages(state.messages, answer.messages),
        list: older ? withOlder(state.list, answer) : withNewer(state.list, answer),
      };
    });
  } catch (error) {
    lastFailure = Date.now();
    throw error;
  } finally {
    update((state) => ({ ...state, list: state.list && { ...state.list, loading: false } }));
  }
};

const READ_BATCH_MS = 300;
const pendingRead = new Set<number>();
let readTimer: ReturnType<typeof setTimeout> | undefined;

/** Messages seen: unread at once on screen, one POST /messages/flags for a batch. */
export const markSeen = (ids: readonly number[]): void => {
  const fresh = ids.filter((id) => current().unread.messages.has(id) && !pendingRead.has(id));
  if (fresh.length === 0) return;
  for (const id of fresh) pendingRead.add(id);
  update((state) => ({ ...state, unread: markRead(state.unread, fresh), messages: applyFlag(state.messages, fresh, 'read', 'add') }));
  readTimer ??= setTimeout(() => {
    readTimer = undefined;
    const batch = [...pendingRead];
    pendingRead.clear();
    void request('POST', 'messages/flags', { messages: batch, op: 'add', flag: 'read' }).catch(() => undefined);
  }, READ_BATCH_MS);
};

let localCounter = 0;

/** Sends a message, shown at once as a local echo until its event confirms it. */
export const sendMessage = async (destination: Destination, content: string): Promise<void> => {
  localCounter += 1;
  const localId = `${Date.now()}.${localCounter}`;
  update((state) => ({ ...state, outbox: [...state.outbox, { localId, destination, content, timestamp: Math.floor(Date.now() / 1000) }] }));
  const target =
    destination.kind === 'stream'
      ? { type: 'stream', to: String(destination.streamId), topic: destination.topic }
      : { type: 'direct', to: destination.userIds };
  try {
    await request('POST', 'messages', { ...target, content, local_id: localId, queue_id: currentQueueId(), read_by_sender: 'true' });
  } catch (error) {
    const text = error instanceof ApiError ? error.message : 'Not sent: the server could not be reached.';
    update((state) => ({ ...state, outbox: failLocal(state.outbox, localId, text) }));
  }
};

export const dismissLocal = (localId: string): void => {
  update((state) => ({ ...state, outbox: state.outbox.filter((m) => m.localId !== localId) }));
};

/** The server's rendering of a draft (POST /messages/render). */
export const renderPreview = async (content: string): Promise<string> =>
  (await request<{ rendered: string }>('POST', 'messages/render', { content })).rendered;

export const toggleStar = async (message: Message): Promise<void> => {
  const op = message.flags.includes('starred') ? 'remove' : 'add';
  await request('POST', 'messages/flags', { messages: [message.id], op, flag: 'starred' });
};

/** A channel's topics, newest first (GET /users/me/{stream_id}/topics). */
export const fetchTopics = async (streamId: number): Promise<{ name: string; max_id: number }[]> =>
  (await request<{ topics: { name: string; max_id: number }[] }>('GET', `users/me/${streamId}/topics`)).topics;
