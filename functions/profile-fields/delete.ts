// DELETE /realm/profile_fields/{field_id}
import { checkRemoveCustomProfileField } from '../../lib/actions/organization/profile-fields';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const removeField = checkRemoveCustomProfileField.authorize(user);
  await removeField(pathInt('field_id'));
});
