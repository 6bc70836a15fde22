// GET /api/v1/user_uploads/{realm_id_str}/{filename}: a short-lived URL of a file the user may
// read, which works without authentication (the mobile app opens it in a browser).
import { temporaryFileUrl } from '../../lib/actions/uploads/files';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathString }) => ({
  url: await temporaryFileUrl(user, pathString('realm_id_str'), pathString('filename')),
}));
