// PATCH /realm/linkifiers
import { requireRealmAdmin } from '../../lib/access/roles';
import { checkReorderLinkifiers } from '../../lib/actions/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  requireRealmAdmin(user);
  const { ordered_linkifier_ids } = params({ ordered_linkifier_ids: json(list(int)) });
  await checkReorderLinkifiers(user, ordered_linkifier_ids);
});
