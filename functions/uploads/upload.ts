// POST /user_uploads: store one file (multipart `file`) and answer its URL, as `url` and the legacy `uri`.
import { checkUploadFile } from '../../lib/actions/uploads/files';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, files }) => {
  const { url, filename } = await checkUploadFile(user, files);
  return { uri: url, url, filename };
});
