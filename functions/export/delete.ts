// DELETE /export/realm/{export_id}
import { checkDeleteRealmExport } from '../../lib/actions/organization/exports';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  const deleteExport = checkDeleteRealmExport.authorize(user);
  await deleteExport(pathInt('export_id'));
});
