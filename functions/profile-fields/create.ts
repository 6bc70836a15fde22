// POST /realm/profile_fields
import { checkAddCustomProfileField, profileFieldData } from '../../lib/actions/organization/profile-fields';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool, int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const addField = checkAddCustomProfileField.authorize(user);
  const p = params({
    name: rawString().default(''),
    hint: rawString().default(''),
    field_type: json(int),
    field_data: json(profileFieldData).default({}),
    display_in_profile_summary: json(bool).default(false),
    required: json(bool).default(false),
    editable_by_user: json(bool).default(true),
  });
  const id = await addField({
    name: p.name,
    hint: p.hint,
    fieldType: p.field_type,
    fieldData: p.field_data,
    displayInProfileSummary: p.display_in_profile_summary,
    required: p.required,
    editableByUser: p.editable_by_user,
  });
  return { id };
});
