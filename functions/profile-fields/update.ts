// PATCH /realm/profile_fields/{field_id}
import { checkUpdateCustomProfileField, profileFieldData } from '../../lib/actions/organization/profile-fields';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathInt }) => {
  const updateField = checkUpdateCustomProfileField.authorize(user);
  const fieldId = pathInt('field_id');
  const p = params({
    name: rawString().optional(),
    hint: rawString().optional(),
    field_data: json(profileFieldData).optional(),
    display_in_profile_summary: json(bool).optional(),
    required: json(bool).optional(),
    editable_by_user: json(bool).optional(),
  });
  await updateField(fieldId, {
    name: p.name,
    hint: p.hint,
    fieldData: p.field_data,
    displayInProfileSummary: p.display_in_profile_summary,
    required: p.required,
    editableByUser: p.editable_by_user,
  });
});
