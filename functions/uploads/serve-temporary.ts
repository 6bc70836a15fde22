// GET /user_uploads/temporary/{token}/{filename}: the file a temporary URL was signed for, without
// authentication, until the URL expires.
import { accessAttachmentByToken, readAttachmentFile } from '../../lib/actions/uploads/files';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { fileResponse } from '../../lib/http/response';

export const handler = publicApiHandler(async ({ pathString }) => {
  const attachment = await accessAttachmentByToken(pathString('token'), pathString('filename'));
  return new RawResponse(fileResponse(attachment, await readAttachmentFile(attachment)));
});
