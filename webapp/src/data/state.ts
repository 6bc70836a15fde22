// Everything the app knows, as one immutable value: built from POST /register's answer and then
// changed only by events (dispatch.ts) and the few local actions (a fetched list, a local echo).
import type { RegisterResponse } from '../api/types';
import { channelsFromRegister, type Channels } from './channels';
import { composeDataFromRegister, type ComposeData } from './compose-data';
import type { MessageList } from './message-list';
import type { Messages } from './messages';
import type { OutboxMessage } from './outbox';
import { dmConversationsFromRegister, type DmConversations } from './dm-conversations';
import { peopleFromRegister, type People } from './people';
import { settingsFromRegister, type Settings } from './settings';
import type { Typist } from './typing';
import { unreadFromRegister, type Unread } from './unread';
import { userSettingsFromRegister, type UserSettings } from './user-settings';

export type Me = { userId: number; email: string; fullName: string };

export type AppState = {
  me: Me;
  realm: { name: string };
  settings: Settings;
  people: People;
  channels: Channels;
  messages: Messages;
  unread: Unread;
  dmConversations: DmConversations;
  list: MessageList | null;
  typing: readonly Typist[];
  outbox: readonly OutboxMessage[];
  compose: ComposeData;
  /** Mine, as against the organization's (settings). */
  userSettings: UserSettings;
  /** Counts invites_changed events: the invitations list (fetched, not in register) reads them again. */
  invitesVersion: number;
};

export const stateFromRegister = (register: RegisterResponse): AppState => ({
  me: { userId: register.user_id, email: register.email, fullName: register.full_name },
  realm: { name: register.realm_name },
  settings: settingsFromRegister(register),
  people: peopleFromRegister(register),
  channels: channelsFromRegister(register),
  messages: new Map(),
  unread: unreadFromRegister(register.unread_msgs, register.user_id),
  dmConversations: dmConversationsFromRegister(register),
  list: null,
  typing: [],
  outbox: [],
  compose: composeDataFromRegister(register),
  userSettings: userSettingsFromRegister(register),
  invitesVersion: 0,
});
