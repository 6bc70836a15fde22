// PATCH /realm/profile_fields
import { checkReorderCustomProfileFields } from '../../lib/actions/organization/profile-fields';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const reorderFields = checkReorderCustomProfileFields.authorize(user);
  const { order } = params({ order: json(list(int)) });
  await reorderFields(order);
});
