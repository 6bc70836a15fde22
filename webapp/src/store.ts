// The app's state as signals: one signal holds the whole immutable state, and each slice is a
// computed signal that changes only when its part does, so a view redraws only for what it reads.
import { computed, signal } from '@preact/signals';
import { mutedStreamIds } from './data/channels';
import { hashToNarrow, narrowToHash } from './data/hash';
import type { Narrow } from './data/narrow';
import { userName } from './data/people';
import type { AppState } from './data/state';
import { pageTitle, viewTitle } from './data/title';
import { unreadCounts } from './data/unread';

export const appState = signal<AppState | null>(null);

/** The state, once register has answered (views are drawn only then). */
export const current = (): AppState => {
  const state = appState.peek();
  if (!state) throw new Error('the app has no state before register answers');
  return state;
};

export const update = (change: (state: AppState) => AppState): void => {
  const state = appState.peek();
  if (state) appState.value = change(state);
};

const slice = <K extends keyof AppState>(key: K) => computed(() => appState.value![key]);

export const me = slice('me');
export const realm = slice('realm');
export const settings = slice('settings');
export const people = slice('people');
export const channels = slice('channels');
export const messages = slice('messages');
export const unread = slice('unread');
export const dmConversations = slice('dmConversations');
export const list = slice('list');
export const typing = slice('typing');
export const outbox = slice('outbox');
export const composeData = slice('compose');
export const userSettings = slice('userSettings');
export const invitesVersion = slice('invitesVersion');

export const counts = computed(() => unreadCounts(unread.value, channels.value));
export const muted = computed(() => mutedStreamIds(channels.value));

/** The view on screen, from the URL's hash. */
export const narrow = signal<Narrow>(hashToNarrow(window.location.hash) ?? { kind: 'inbox' });

export const title = computed(() => {
  if (!appState.value) return 'Zulip';
  const view = viewTitle(narrow.value, channels.value, people.value, me.value.userId);
  return pageTitle(counts.value.total, view, realm.value.name);
});

/** The server is unreachable and the app is retrying. */
export const reconnecting = signal(false);

/** A clock for what lapses with time (typing notices, presence), ticking every few seconds. */
export const now = signal(Date.now());

export const hashOf = (view: Narrow): string => {
  const state = appState.peek();
  const names = {
    channelName: (id: number) => state?.channels.streams.get(id)?.name,
    userName: (id: number) => (state ? userName(state.people, id) : undefined),
  };
  return narrowToHash(view, names, state?.me.userId ?? 0);
};
