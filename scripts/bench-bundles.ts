// Bundle benchmark (`npm run bench bundles`): builds the handlers the way serverless-esbuild does,
// unminified with source maps (as deployed) and minified (with and without source maps), and runs
// each bundle in a fresh Node process as Lambda would: module load time (cold start), resident
// memory after loading, and peak resident memory after its heaviest request on the development
// data (POST /register with every section; GET /events returning events). The memory each function
// is given (functions/*/routes.json memorySize) comes from the peak here, with a margin.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import * as usersStore from '../lib/store/users';
import { BENCH_QUEUE } from './bench-util';

type Variant = { name: string; minify: boolean; sourcemap: boolean };
const VARIANTS: Variant[] = [
  { name: 'unminified + source map (deployed today)', minify: false, sourcemap: true },
  { name: 'minified + source map', minify: true, sourcemap: true },
  { name: 'minified, no source map', minify: true, sourcemap: false },
];
/** The handlers measured and the request each is measured at (its heaviest on the development data). */
const HANDLERS = [
  { entry: 'functions/events/get.ts', request: 'events' },
  { entry: 'functions/events/register.ts', request: 'register' },
  { entry: 'functions/drafts/create.ts', request: 'none' },
] as const;
const RUNS = 3;

/** Runs in the child: load the bundle, then one request; prints JSON figures. */
const CHILD = `
const started = process.hrtime.bigint();
const mod = require(process.env.BUNDLE);
const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
const rssAfterLoad = process.memoryUsage().rss;
const auth = 'Basic ' + Buffer.from(process.env.BENCH_AUTH).toString('base64');
const http = (method, path, body, query) => ({
  version: '2.0', routeKey: method + ' ' + path, rawPath: '/api/v1' + path, rawQueryString: query || '',
  queryStringParameters: query ? Object.fromEntries(new URLSearchParams(query)) : undefined,
  headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
  body: body || '', isBase64Encoded: false, requestContext: { http: { method } },
});
(async () => {
  if (process.env.REQUEST === 'register') {
    const r = await mod.handler(http('POST', '/register', ''));
    if (r.statusCode !== 200) throw new Error(r.body);
  } else if (process.env.REQUEST === 'events') {
    const r = await mod.handler(http('GET', '/events', '', 'queue_id=' + process.env.QUEUE_ID + '&last_event_id=-1&dont_block=true'));
    if (r.statusCode !== 200) throw new Error(r.body);
  }
  console.log(JSON.stringify({ loadMs, rssAfterLoad, peakRss: process.resourceUsage().maxRSS * 1024 }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

const mb = (bytes: number) => bytes / 1024 / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Lambda memory for a measured peak: 1.5 × the peak, rounded up to 64 MB, at least 128 MB. */
export const memoryFor = (peakMb: number): number => Math.max(128, Math.ceil((peakMb * 1.5) / 64) * 64);

export const benchBundles = async (): Promise<void> => {
  console.log('\n## Bundles: cold start and memory of each handler, by build (fresh Node process per run, median of 3)\n');
  const [iago] = await usersStore.listByEmail('iago@zulip.com');
  const { registerQueue } = await import('../lib/events/queues');
  const { sendEvent } = await import('../lib/events/send');
  const queue = await registerQueue(iago, BENCH_QUEUE);
  for (let i = 0; i < 100; i += 1)
    await sendEvent(iago.realmId, { type: 'alert_words', alert_words: [`bundle-${i}`] }, { users: [iago.id] });
  const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
  const childFile = join(dir, 'child.js');
  writeFileSync(childFile, CHILD);
  try {
    console.log('handler | build | bundle KiB | load ms | RSS after load MB | peak RSS after request MB');
    for (const { entry, request } of HANDLERS) {
      let deployedPeak = 0;
      for (const variant of VARIANTS) {
        const outfile = join(dir, `${entry.replace(/\W/g, '_')}_${variant.minify}_${variant.sourcemap}.js`);
        buildSync({
          entryPoints: [entry],
          bundle: true,
          platform: 'node',
          target: 'node22',
          format: 'cjs',
          outfile,
          minify: variant.minify,
          sourcemap: variant.sourcemap,
          logLevel: 'error',
        });
        const runs = Array.from({ length: RUNS }, () => {
          const out = execFileSync(process.execPath, [...(variant.sourcemap ? ['--enable-source-maps'] : []), childFile], {
            env: {
              ...process.env,
              BUNDLE: outfile,
              REQUEST: request,
              QUEUE_ID: queue.queueId,
              BENCH_AUTH: `${iago.email}:${iago.apiKey}`,
              REQUEST_LOG: 'off',
            },
            encoding: 'utf8',
          });
          return JSON.parse(out.trim().split('\n').pop()!) as { loadMs: number; rssAfterLoad: number; peakRss: number };
        });
        const peak = Math.max(...runs.map((r) => mb(r.peakRss)));
        if (variant === VARIANTS[0]) deployedPeak = peak;
        console.log(
          `${entry} | ${variant.name} | ${(statSync(outfile).size / 1024).toFixed(0)} | ${median(runs.map((r) => r.loadMs)).toFixed(0)} | ` +
            `${median(runs.map((r) => mb(r.rssAfterLoad))).toFixed(0)} | ${peak.toFixed(0)}`,
        );
      }
      console.log(`${entry}: memory for the deployed build (1.5 × peak, 64 MB steps, at least 128): ${memoryFor(deployedPeak)} MB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
