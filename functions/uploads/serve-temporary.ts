// GET /user_uploads/temporary/{token}/{filename}: the file a temporary URL was signed for, without
// authentication, until the URL expires.
import { readTemporaryFile } from '../../lib/actions/uploads/files';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { fileResponse } from '../../lib/http/response';

export const handler = publicApiHandler(async ({ pathString }) => {
  const { attachment, body } = await readTemporaryFile(pathString('token'), pathString('filename'));
  return new RawResponse(fileResponse(attachment, body));
});
