// GET /realm/profile_fields
import { listCustomProfileFields } from '../../lib/actions/organization/profile-fields';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ custom_fields: await listCustomProfileFields(user) }));
