// GET /user_avatars/exports/{realm_id}/{token}/{filename} (at the site root, an export's
// `export_url`): for an administrator of its organization, authenticated as for the API or by the
// browser's session, a redirect to the archive's short-lived presigned S3 URL.
import { readRealmExportDownloadUrl } from '../../lib/actions/organization/exports';
import { apiHandler, RawResponse } from '../../lib/http/api-handler';
import { redirectResponse } from '../../lib/http/response';

export const handler = apiHandler(
  async ({ user, pathString }) => {
    const download = readRealmExportDownloadUrl.authorize(user);
    return new RawResponse(redirectResponse(await download(pathString('realm_id'), pathString('token'), pathString('filename'))));
  },
  { browserSession: true },
);
