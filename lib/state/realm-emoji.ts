// Register state for `realm_emoji`: every custom emoji of the organization, deactivated ones too,
// by id (upstream's get_all_custom_emoji_for_realm). A strongly consistent read, so that an emoji
// whose event the queue skipped (it arrived before the queue's start) is in the state.
import { realmEmojiDict } from '../models/realm-emoji';
import * as realmEmojiStore from '../store/realm-emoji';
import type { StateBuilder } from './registry';

export const realmEmojiState: StateBuilder = async ({ realm, want }) =>
  want('realm_emoji') ? { realm_emoji: realmEmojiDict(await realmEmojiStore.listRealmEmoji(realm.id, { consistent: true })) } : {};
