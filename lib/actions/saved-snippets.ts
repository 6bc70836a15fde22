// Saved snippets (upstream's zerver/views/saved_snippets.py, zerver/actions/saved_snippets.py):
// a user's own reusable message texts. Every snippet lives in its owner's partition, so another
// user's snippet and a missing one are the same 404; every change is told to the owner's queues only.
import { nowSeconds } from '../clock';
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { MAX_MESSAGE_LENGTH, strippedText } from '../models/message-content';
import type { User } from '../models/user';
import {
  MAX_SAVED_SNIPPET_TITLE_LENGTH,
  MAX_SAVED_SNIPPETS_PER_USER,
  toApiSavedSnippet,
  type ApiSavedSnippet,
  type SavedSnippet,
} from '../models/user-data';
import { allocateIds } from '../store/common';
import * as userDataStore from '../store/user-data';
import { LostRaceError, retryLostRaces } from './retry';

/** A snippet's title and content, as the create and edit parameters declare them. */
export const snippetTitle = strippedText(MAX_SAVED_SNIPPET_TITLE_LENGTH);
export const snippetContent = strippedText(MAX_MESSAGE_LENGTH);

const notFound = (): ResourceNotFoundError => new ResourceNotFoundError('Saved snippet does not exist.');

/** The caller's saved snippets in id order (GET /saved_snippets; register reads the same list). */
export const listSavedSnippets = async (user: User): Promise<ApiSavedSnippet[]> =>
  (await userDataStore.listSavedSnippetsOfUser(user.id)).map(toApiSavedSnippet);

/**
 * POST /saved_snippets, with the title and content already validated. Refuses a user who keeps
 * MAX_SAVED_SNIPPETS_PER_USER snippets (upstream has no bound); otherwise writes the snippet and
 * its count in one transaction and sends `saved_snippets` add to the caller's queues.
 */
export const doCreateSavedSnippet = async (user: User, title: string, content: string): Promise<SavedSnippet> => {
  const snippet: SavedSnippet = { id: await allocateIds('savedSnippet'), userId: user.id, title, content, dateCreated: nowSeconds() };
  await retryLostRaces(async () => {
    const written = await userDataStore.createSavedSnippet(snippet, MAX_SAVED_SNIPPETS_PER_USER);
    if (written === 'conflict') throw new LostRaceError();
    if (written === 'refused') {
      throw new BadRequestError(`You can have at most ${MAX_SAVED_SNIPPETS_PER_USER} saved snippets.`);
    }
  });
  await sendEvent(user.realmId, { type: 'saved_snippets', op: 'add', saved_snippet: toApiSavedSnippet(snippet) }, { users: [user.id] });
  return snippet;
};

/**
 * PATCH /saved_snippets/{id}: replaces the title, the content or both of one of the caller's
 * snippets (404 "Saved snippet does not exist." for another user's or a missing one, also when it
 * is deleted meanwhile), then sends `saved_snippets` update with the whole snippet. Nothing to
 * change is a success that reads and sends nothing, as upstream's early return.
 */
export const doEditSavedSnippet = async (
  user: User,
  snippetId: number,
  changes: { title: string | undefined; content: string | undefined },
): Promise<void> => {
  if (changes.title === undefined && changes.content === undefined) return;
  const existing = await userDataStore.getSavedSnippet(user.id, snippetId);
  if (!existing) throw notFound();
  const edited: SavedSnippet = { ...existing, title: changes.title ?? existing.title, content: changes.content ?? existing.content };
  if (!(await userDataStore.updateSavedSnippet(user.id, snippetId, edited))) throw notFound();
  await sendEvent(user.realmId, { type: 'saved_snippets', op: 'update', saved_snippet: toApiSavedSnippet(edited) }, { users: [user.id] });
};

/**
 * DELETE /saved_snippets/{id}: deletes one of the caller's snippets and its place in the count (a
 * conditional delete: of two concurrent deletes one gets the 404), then sends `saved_snippets`
 * remove to the caller's queues.
 */
export const doDeleteSavedSnippet = async (user: User, snippetId: number): Promise<void> => {
  await retryLostRaces(async () => {
    const written = await userDataStore.deleteSavedSnippet(user.id, snippetId);
    if (written === 'conflict') throw new LostRaceError();
    if (written === 'refused') throw notFound();
  });
  await sendEvent(user.realmId, { type: 'saved_snippets', op: 'remove', saved_snippet_id: snippetId }, { users: [user.id] });
};
