// POST /export/realm
import { checkStartRealmExport } from '../../lib/actions/organization/exports';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { EXPORT_TYPES } from '../../lib/models/realm-export';
import { stringIn } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const startExport = checkStartRealmExport.authorize(user);
  const { export_type } = params({ export_type: rawString(stringIn(EXPORT_TYPES)).default('public') });
  return { id: await startExport(realm, export_type) };
});
