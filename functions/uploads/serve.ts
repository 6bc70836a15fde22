// GET /user_uploads/{realm_id_str}/{filename} (at the site root, as message content links it):
// the file itself, for a user who may read it, authenticated as for the API or, followed from the
// web app, by the browser's session.
import { readFile } from '../../lib/actions/uploads/files';
import { apiHandler, RawResponse } from '../../lib/http/api-handler';
import { fileResponse } from '../../lib/http/response';

export const handler = apiHandler(
  async ({ user, pathString }) => {
    const { attachment, body } = await readFile(user, pathString('realm_id_str'), pathString('filename'));
    return new RawResponse(fileResponse(attachment, body));
  },
  { browserSession: true },
);
