// POST /users/me/api_key/regenerate
import { doRegenerateApiKey } from '../../lib/actions/people/api-keys';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ api_key: await doRegenerateApiKey(user) }));
