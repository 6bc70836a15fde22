// GET /export/realm/consents
import { readExportConsents } from '../../lib/actions/organization/exports';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ export_consents: await readExportConsents(user) }));
