// POST /saved_snippets: saves a new snippet for the caller.
import { doCreateSavedSnippet, snippetContent, snippetTitle } from '../../lib/actions/saved-snippets';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const { title, content } = params({ title: rawString(snippetTitle), content: rawString(snippetContent) });
  const snippet = await doCreateSavedSnippet(user, title, content);
  return { saved_snippet_id: snippet.id };
});
