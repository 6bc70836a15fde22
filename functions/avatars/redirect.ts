// GET /avatar/{email_or_id} and /avatar/{email_or_id}/medium (at the site root, where clients load
// the avatars of users sent without avatar_url): a redirect to the user's avatar, with the
// request's query string appended, as upstream. Spectators of an open organization may ask by id.
import { avatarRedirectUrl } from '../../lib/actions/uploads/avatars';
import { optionalAuthApiHandler, RawResponse, type MaybeAuthedContext } from '../../lib/http/api-handler';
import { redirectResponse } from '../../lib/http/response';

const withQuery = (url: string, query: string | undefined): string => (query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url);

const redirect =
  (medium: boolean) =>
  async ({ realm, user, pathString, event }: MaybeAuthedContext): Promise<RawResponse> =>
    new RawResponse(
      redirectResponse(withQuery(await avatarRedirectUrl(realm, user, pathString('email_or_id'), { medium }), event.rawQueryString)),
    );

export const handler = optionalAuthApiHandler(redirect(false));
export const mediumHandler = optionalAuthApiHandler(redirect(true));
