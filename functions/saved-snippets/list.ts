// GET /saved_snippets: the caller's saved snippets, in id order.
import { listSavedSnippets } from '../../lib/actions/saved-snippets';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ saved_snippets: await listSavedSnippets(user) }));
