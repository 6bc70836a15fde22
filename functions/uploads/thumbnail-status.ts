// GET /api/v1/thumbnail/status/{realm_id_str}/{filename}: whether an uploaded file the user may
// read has its thumbnails yet (clients poll it after an upload). No thumbnails are made here.
import { readThumbnailStatus } from '../../lib/actions/uploads/files';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathString }) => ({
  has_thumbnail: await readThumbnailStatus(user, pathString('realm_id_str'), pathString('filename')),
}));
