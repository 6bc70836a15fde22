// DELETE /attachments/{attachment_id}: deletes one of the caller's uploads, its bytes included.
import { doRemoveAttachment } from '../../lib/actions/uploads/attachments';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathInt }) => {
  await doRemoveAttachment(user, pathInt('attachment_id'));
});
