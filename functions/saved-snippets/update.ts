// PATCH /saved_snippets/{saved_snippet_id}: changes the title or content of one of the caller's snippets.
import { doEditSavedSnippet, snippetContent, snippetTitle } from '../../lib/actions/saved-snippets';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const snippetId = pathInt('saved_snippet_id');
  const { title, content } = params({ title: rawString(snippetTitle).optional(), content: rawString(snippetContent).optional() });
  await doEditSavedSnippet(user, snippetId, { title, content });
});
