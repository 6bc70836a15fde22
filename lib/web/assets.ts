// The web app's built files, as webapp/build.ts writes them into config.webappDist(): content-hashed
// names (a name never names other bytes, so a browser keeps them for a year) and manifest.json,
// which names the entry script, its style sheet and the favicon. Read from the function's own
// package (serverless.yml packages them with the static and home functions), once per process.
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { config } from '../config';

export type WebappManifest = { js: string; css: string; favicon: string };

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  json: 'application/json',
  map: 'application/json',
};
/** Types worth compressing on the way out (fonts and images are compressed already). */
const TEXT = new Set(['js', 'css', 'svg', 'json', 'map']);
/** A path under /static/: segments of letters, digits, `.`, `_` and `-`, none starting with a dot. */
const ASSET_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export type Asset = { body: Buffer; contentType: string; gzip?: Buffer; br?: Buffer };

/** Found files only: a miss is not kept, so asking for made-up names grows nothing. */
const cache = new Map<string, Asset>();
let manifest: { file: string; mtimeMs: number; value: WebappManifest } | undefined;

/**
 * The built app's manifest; throws when the app is not built (npm run build:webapp). Read again
 * when the file changes (`npm start` rebuilds the app while it runs).
 */
export const webappManifest = (): WebappManifest => {
  const file = join(config.webappDist(), 'manifest.json');
  const mtimeMs = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
  if (mtimeMs === undefined) throw new Error(`the web app is not built: no ${file} (npm run build:webapp)`);
  if (manifest?.file !== file || manifest.mtimeMs !== mtimeMs) {
    manifest = { file, mtimeMs, value: JSON.parse(readFileSync(file, 'utf8')) as WebappManifest };
  }
  return manifest.value;
};

/** The built file at `name` (a path under /static/), or undefined: only files inside the build's folder. */
export const webappAsset = (name: string): Asset | undefined => {
  if (!ASSET_PATH.test(name) || name.length > 200) return undefined;
  const dir = resolve(config.webappDist());
  const key = `${dir}\n${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const file = resolve(dir, name);
  const inside = !relative(dir, file).startsWith(`..${sep}`) && file !== dir;
  const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  const contentType = TYPES[extension];
  if (!inside || !contentType || !statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  const body = readFileSync(file);
  const asset: Asset = TEXT.has(extension)
    ? {
        body,
        contentType,
        gzip: gzipSync(body, { level: 9 }),
        br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      }
    : { body, contentType };
  cache.set(key, asset);
  return asset;
};
