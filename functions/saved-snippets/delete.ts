// DELETE /saved_snippets/{saved_snippet_id}: deletes one of the caller's snippets.
import { doDeleteSavedSnippet } from '../../lib/actions/saved-snippets';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doDeleteSavedSnippet(user, pathInt('saved_snippet_id'));
});
