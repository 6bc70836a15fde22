// Every register state builder. Add one line per category module.
import { customProfileFieldsState } from './custom-profile-fields';
import { draftsState } from './drafts';
import { channelFoldersState, streamState, subscriptionState } from './channels';
import { maxMessageIdState, recentPrivateConversationsState, starredMessagesState, unreadMsgsState } from './messages';
import { defaultStreamsState, emptySectionsState, playgroundsState, realmBotsState, realmUserSettingsDefaultsState } from './other';
import { alertWordsState, navigationViewsState, onboardingStepsState, savedSnippetsState } from './personal';
import { presenceState } from './presence';
import { realmState } from './realm';
import { realmUserState } from './realm-user';
import type { StateBuilder } from './registry';
import { userSettingsState } from './user-settings';
import { userGroupsState } from './user-groups';
import { linkifiersState } from './linkifiers';
import { realmEmojiState } from './realm-emoji';
import { remindersState } from './reminders';
import { userStatusState } from './user-status';
import { devicesState } from './devices';
import { userTopicsState } from './user-topics';
import { realmDomainsState } from './realm-domains';
import { mutedUsersState } from './muted-users';

export const STATE_BUILDERS: StateBuilder[] = [
  draftsState,
  customProfileFieldsState,
  presenceState,
  // Register snapshot (issue 8).
  realmState,
  realmUserState,
  userSettingsState,
  subscriptionState,
  streamState,
  channelFoldersState,
  maxMessageIdState,
  unreadMsgsState,
  starredMessagesState,
  recentPrivateConversationsState,
  alertWordsState,
  onboardingStepsState,
  savedSnippetsState,
  navigationViewsState,
  realmBotsState,
  realmUserSettingsDefaultsState,
  emptySectionsState,
  playgroundsState,
  defaultStreamsState,
  // Organization objects (issue 7).
  userGroupsState,
  linkifiersState,
  remindersState,
  // Mobile sign-in and bots (issue 17).
  userStatusState,
  devicesState,
  // Topic muting and following (issue 16 item 4).
  userTopicsState,
  // Muted users.
  mutedUsersState,
  // Organization administration (issue 24).
  realmDomainsState,
  // Custom emoji (issue 24 item 2).
  realmEmojiState,
];
