// Register state for `drafts`: the newest drafts first, at most upstream's
// MAX_DRAFTS_IN_REGISTER_RESPONSE; empty for spectators and for users who turned synchronization off.
import { toApiDraft } from '../models/draft';
import * as draftsStore from '../store/drafts';
import type { StateBuilder } from './registry';

const MAX_DRAFTS_IN_REGISTER = 1000;

export const draftsState: StateBuilder = async ({ user, want }) => {
  if (!want('drafts')) return {};
  if (!user || !user.enableDraftsSynchronization) return { drafts: [] };
  return { drafts: (await draftsStore.listNewestDraftsOfUser(user.id, MAX_DRAFTS_IN_REGISTER)).map(toApiDraft) };
};
