// The session with the server: POST /register, then GET /events in a loop that applies every
// event; a new register after BAD_EVENT_QUEUE_ID, and exponential backoff with the reconnecting
// banner while the server cannot be reached.
import { ApiError, request } from './api/client';
import type { RegisterResponse, ServerEvent } from './api/types';
import { applyEvent } from './data/dispatch';
import { stateFromRegister } from './data/state';
import { notifyOfMessage } from './desktop';
import { appState, current, reconnecting } from './store';

/** What the app keeps live; register's initial state comes for the same list. */
const EVENT_TYPES = [
  'message',
  'update_message',
  'delete_message',
  'reaction',
  'update_message_flags',
  'subscription',
  'stream',
  'user_topic',
  'realm_user',
  'presence',
  'user_status',
  'typing',
  'realm',
  'realm_emoji',
  'realm_linkifiers',
  'default_streams',
  'custom_profile_fields',
  'user_settings',
  'recent_private_conversations',
  'drafts',
  'submessage',
  'user_group',
  'realm_user_groups',
  'muted_users',
  'invites_changed',
];

const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  simplified_presence_events: true,
  linkifier_url_template: true,
};

const BACKOFF = { firstMs: 1000, maxMs: 30_000 };

/** The queue this page reads, sent with each message so its echo is matched (local_id). */
let queueId: string | undefined;
export const currentQueueId = (): string | undefined => queueId;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The delay before retry number `attempt` (from 0): doubling, capped, with some jitter. */
const backoffDelay = (attempt: number): number => Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** attempt) * (0.75 + Math.random() / 2);

const register = (): Promise<RegisterResponse> =>
  request<RegisterResponse>('POST', 'register', {
    apply_markdown: true,
    client_gravatar: false,
    slim_presence: true,
    include_subscribers: false,
    event_types: EVENT_TYPES,
    client_capabilities: CLIENT_CAPABILITIES,
  });

const applyAll = (events: ServerEvent[]): void => {
  const before = current();
  let state = before;
  for (const event of events) state = applyEvent(state, event, Date.now());
  appState.value = state;
  for (const event of events) if (event.type === 'message') notifyOfMessage(event, state);
};

/** Polls one queue until the server forgets it (BAD_EVENT_QUEUE_ID). */
const poll = async (queue: string, lastEventId: number): Promise<void> => {
  let last = lastEventId;
  let failures = 0;
  for (;;) {
    try {
      const { events } = await request<{ events: ServerEvent[] }>('GET', 'events', { queue_id: queue, last_event_id: String(last) });
      failures = 0;
      reconnecting.value = false;
      if (events.length > 0) {
        last = Math.max(last, ...events.map((e) => e.id));
        applyAll(events);
      }
    } catch (error) {
      if (error instanceof ApiError && error.code === 'BAD_EVENT_QUEUE_ID') return;
      if (error instanceof ApiError && error.status === 401) return;
      reconnecting.value = true;
      await sleep(backoffDelay(failures));
      failures += 1;
    }
  }
};

/**
 * Registers and polls for as long as the page lives; `onRegistered` runs after each register (the
 * first and every one after the server lost the queue), to reload what the view shows.
 */
export const runSession = async (onRegistered: () => void): Promise<void> => {
  let failures = 0;
  for (;;) {
    let registered: RegisterResponse;
    try {
      registered = await register();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      reconnecting.value = true;
      await sleep(backoffDelay(failures));
      failures += 1;
      continue;
    }
    failures = 0;
    reconnecting.value = false;
    queueId = registered.queue_id;
    const outbox = appState.peek()?.outbox ?? [];
    appState.value = { ...stateFromRegister(registered), outbox };
    onRegistered();
    await poll(registered.queue_id, registered.last_event_id);
  }
};
