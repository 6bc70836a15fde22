// A small organization for the web app's unit tests: a register answer and messages in its wire
// format, as the server sends them.
import type { Message, RegisterResponse } from '../../webapp/src/api/types';
import { stateFromRegister, type AppState } from '../../webapp/src/data/state';

export const ME = 11;
export const HAMLET = 12;
export const OTHELLO = 13;
export const DENMARK = 3;
export const VERONA = 4;

export const register = (overrides: Partial<RegisterResponse> = {}): RegisterResponse => ({
  queue_id: 'q1',
  last_event_id: -1,
  user_id: ME,
  email: 'iago@zulip.com',
  full_name: 'Iago',
  realm_name: 'Zulip Dev',
  max_message_id: 100,
  unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [] },
  subscriptions: [
    { stream_id: DENMARK, name: 'Denmark', color: '#c2c2c2', is_muted: false, invite_only: false, description: '' },
    { stream_id: VERONA, name: 'Verona', color: '#76ce90', is_muted: false, invite_only: false, description: '' },
  ],
  realm_users: [
    { user_id: ME, email: 'iago@zulip.com', full_name: 'Iago', is_bot: false, is_active: true },
    { user_id: HAMLET, email: 'hamlet@zulip.com', full_name: 'King Hamlet', is_bot: false, is_active: true },
    { user_id: OTHELLO, email: 'othello@zulip.com', full_name: 'Othello, the Moor of Venice', is_bot: false, is_active: true },
  ],
  presences: {},
  server_presence_offline_threshold_seconds: 200,
  ...overrides,
});

export const state = (overrides: Partial<RegisterResponse> = {}): AppState => stateFromRegister(register(overrides));

const users = { [ME]: 'Iago', [HAMLET]: 'King Hamlet', [OTHELLO]: 'Othello, the Moor of Venice' } as Record<number, string>;

export const channelMessage = (id: number, streamId: number, topic: string, fields: Partial<Message> = {}): Message => ({
  id,
  sender_id: HAMLET,
  sender_full_name: 'King Hamlet',
  sender_email: 'hamlet@zulip.com',
  avatar_url: null,
  content: `<p>message ${id}</p>`,
  timestamp: 1_764_000_000 + id * 60,
  type: 'stream',
  stream_id: streamId,
  subject: topic,
  display_recipient: streamId === DENMARK ? 'Denmark' : 'Verona',
  flags: [],
  reactions: [],
  ...fields,
});

export const directMessage = (id: number, userIds: number[], fields: Partial<Message> = {}): Message => ({
  ...channelMessage(id, 0, ''),
  type: 'private',
  stream_id: undefined,
  display_recipient: userIds.map((uid) => ({ id: uid, email: `${uid}@zulip.com`, full_name: users[uid] ?? '' })),
  ...fields,
});
