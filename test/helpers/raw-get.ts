// A raw GET, for what fetch would hide (it decompresses): the answer's status, type and encoding,
// and its body decoded.
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { readBody } from '../../scripts/http-body';

export type RawAnswer = { status: number; type: string; encoding?: string; text: string };

/** GETs `url`, asking for `acceptEncoding` when given. */
export const rawGet = (url: string, acceptEncoding?: string): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const headers = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
    get(url, { headers }, (res) => {
      readBody(res).then((raw) => {
        const encoding = res.headers['content-encoding'];
        resolve({
          status: res.statusCode!,
          type: String(res.headers['content-type']),
          encoding,
          text: (encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'),
        });
      }, reject);
    }).on('error', reject);
  });
