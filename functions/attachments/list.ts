// GET /attachments: the caller's uploads with the messages that link them, and the organization's upload space.
import { listOwnAttachments } from '../../lib/actions/uploads/attachments';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => {
  const { attachments, uploadSpaceUsed } = await listOwnAttachments(user);
  return { attachments, upload_space_used: uploadSpaceUsed };
});
