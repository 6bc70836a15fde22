// Builds the browser app (webapp/src) into content-hashed files the server serves at /static/:
// app-[hash].js (an ES module; what the first screen does not need, the settings and the emoji picker
// and names, is split into chunk-[hash].js files it imports on demand), app-[hash].css (KaTeX's CSS and fonts
// included, hashed too), each file of webapp/public hashed, and manifest.json naming them.
// `npm run build:webapp` runs it; the server's build calls buildWebapp().
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { build } from 'esbuild';

export type WebappManifest = { js: string; css: string; favicon: string };

const ROOT = __dirname;

/** A public file's name with its content's hash, as esbuild names its outputs. */
const hashedName = (file: string, content: Buffer): string => {
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 8).toUpperCase();
  return `${basename(file, extname(file))}-${hash}${extname(file)}`;
};

export const buildWebapp = async (opts: { outdir?: string; minify?: boolean } = {}): Promise<WebappManifest> => {
  const outdir = opts.outdir ?? join(ROOT, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: join(ROOT, 'src', 'main.tsx') },
    bundle: true,
    format: 'esm',
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    outdir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    minify: opts.minify ?? true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(ROOT, 'tsconfig.json'),
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file' },
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const named = (ext: string) => {
    const found =
      outputs.find(([path, output]) => output.entryPoint !== undefined && path.endsWith(ext)) ??
      outputs.find(([path]) => path.endsWith(ext));
    if (!found) throw new Error(`esbuild wrote no ${ext} file`);
    return relative(outdir, found[0]);
  };
  const publicDir = join(ROOT, 'public');
  const copied = new Map<string, string>();
  for (const file of readdirSync(publicDir)) {
    const content = readFileSync(join(publicDir, file));
    const name = hashedName(file, content);
    writeFileSync(join(outdir, name), content);
    copied.set(file, name);
  }
  const manifest: WebappManifest = { js: named('.js'), css: named('.css'), favicon: copied.get('favicon.svg')! };
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
};

if (require.main === module) {
  buildWebapp().then(
    (manifest) => console.log(JSON.stringify(manifest)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
