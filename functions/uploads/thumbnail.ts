// GET /thumbnail?url=…&size=… (at the site root): where the image previews of rendered messages
// (message_inline_image) load their images from, as upstream's /thumbnail without a thumbnailing
// service: a redirect to the image itself, an uploaded file (whose own route checks access) or
// an http(s) URL. Nothing is fetched or resized here. The web app's images send the session.
import { BadRequestError } from '../../lib/errors';
import { apiHandler, RawResponse } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { redirectResponse } from '../../lib/http/response';

/** The image a preview's url names: an upload path (made absolute) or an http(s) URL; else undefined. */
const imageLocation = (url: string): string | undefined => {
  if (/^\/?user_uploads\//.test(url)) return url.startsWith('/') ? url : `/${url}`;
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : undefined;
};

export const handler = apiHandler(
  async ({ params }) => {
    const p = params({ url: rawString(), size: rawString() });
    const location = imageLocation(p.url);
    if (location === undefined) throw new BadRequestError('Invalid URL');
    return new RawResponse(redirectResponse(location));
  },
  { browserSession: true },
);
