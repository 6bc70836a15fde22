// GET /export/realm
import { readRealmExports } from '../../lib/actions/organization/exports';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, realm }) => ({ exports: await readRealmExports(user, realm) }));
