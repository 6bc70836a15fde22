// Drafts: every draft action refuses a user who turned synchronization off, and a draft is its owner's alone.
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { type Draft } from '../models/draft';
import type { User } from '../models/user';
import * as draftsStore from '../store/drafts';

/** Upstream's draft_endpoint: every draft action refuses users who turned synchronization off, before anything else. */
export const requireDraftsSynchronization = (user: User): void => {
  if (!user.enableDraftsSynchronization) throw new BadRequestError('User has disabled synchronizing drafts.');
};

/** A draft of `user`: another user's draft and a missing one are the same 404 "Draft does not exist". */
export const accessDraft = async (user: User, draftId: number): Promise<Draft> => {
  const draft = await draftsStore.getDraft(user.id, draftId);
  if (!draft) throw new ResourceNotFoundError('Draft does not exist');
  return draft;
};
