// GET /static/{file+}: the web app's built files (lib/web/assets.ts), content-hashed, so kept by
// the browser for a year; compressed with Brotli or gzip when the browser accepts it. Any other
// name is the site's 404 page. No session, no cookie: the same bytes for everyone.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResponse } from '../../lib/http/response';
import { webappAsset } from '../../lib/web/assets';
import { pageNotFound } from '../../lib/web/page-handler';

/** Whether Accept-Encoding allows `coding` (present, and not with q=0). */
const accepts = (acceptEncoding: string, coding: string): boolean =>
  acceptEncoding.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    return name === coding && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });

export const handler = async (event: APIGatewayProxyEventV2): Promise<HttpResponse> => {
  let name = event.pathParameters?.file ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    return pageNotFound();
  }
  const asset = webappAsset(name);
  if (!asset) return pageNotFound();
  const acceptEncoding = Object.entries(event.headers ?? {}).find(([h]) => h.toLowerCase() === 'accept-encoding')?.[1] ?? '';
  const [coding, body] =
    asset.br && accepts(acceptEncoding, 'br')
      ? ['br', asset.br]
      : asset.gzip && accepts(acceptEncoding, 'gzip')
        ? ['gzip', asset.gzip]
        : [undefined, asset.body];
  return {
    statusCode: 200,
    headers: {
      'Content-Type': asset.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      ...(asset.gzip ? { Vary: 'Accept-Encoding' } : {}),
      ...(coding ? { 'Content-Encoding': coding } : {}),
    },
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
};
