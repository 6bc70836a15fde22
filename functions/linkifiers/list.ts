// GET /realm/linkifiers
import { listLinkifiers } from '../../lib/actions/organization/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { toApiLinkifier } from '../../lib/models/linkifier';

export const handler = apiHandler(async ({ user }) => ({ linkifiers: (await listLinkifiers(user.realmId)).map(toApiLinkifier) }));
