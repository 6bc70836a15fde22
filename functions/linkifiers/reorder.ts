// PATCH /realm/linkifiers
import { checkReorderLinkifiers } from '../../lib/actions/organization/linkifiers';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const reorderLinkifiers = checkReorderLinkifiers.authorize(user);
  const { ordered_linkifier_ids } = params({ ordered_linkifier_ids: json(list(int)) });
  await reorderLinkifiers(ordered_linkifier_ids);
});
