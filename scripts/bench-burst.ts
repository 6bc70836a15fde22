// `npx tsx scripts/bench-burst.ts [burst size] [route path]`: starts the local service as
// `npm start` does, then sends a burst of concurrent first calls to routes that have not been
// called yet (GET /realm/presence by default) and prints, per burst, how many answers were the
// API's envelope, their statuses and the latency percentiles. Issue 13 item 5: serverless-offline
// used to start one worker per concurrent call, each compiling the TypeScript handlers, so most of
// a burst timed out.
import { percentile } from './bench-util';
import { startLocalService } from './local-service';
import * as usersStore from '../lib/store/users';

const main = async (): Promise<void> => {
  const size = Number(process.argv[2] ?? 30);
  const paths = process.argv[3] ? [process.argv[3]] : ['/realm/presence', '/drafts', '/user_groups', '/realm/linkifiers'];
  process.env.REQUEST_LOG = 'off';
  process.env.DEVELOPMENT_MODE = 'on';
  const started = Date.now();
  const service = await startLocalService({ port: 0 });
  console.log(
    `# Burst of ${size} concurrent first calls (service up in ${((Date.now() - started) / 1000).toFixed(1)} s, Node ${process.version})`,
  );
  try {
    const [iago] = await usersStore.listByEmail('iago@zulip.com');
    const authorization = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
    for (const path of paths) {
      const burstStart = performance.now();
      const results = await Promise.all(
        Array.from({ length: size }, async () => {
          const t0 = performance.now();
          const response = await fetch(`${service.baseUrl}${path}`, { headers: { authorization } });
          const text = await response.text();
          let envelope: boolean;
          try {
            const body = JSON.parse(text) as { result?: unknown };
            envelope = body.result === 'success' || body.result === 'error';
          } catch {
            envelope = false;
          }
          return { status: response.status, envelope, ms: performance.now() - t0 };
        }),
      );
      const statuses = Object.entries(
        results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {}),
      )
        .map(([s, n]) => `${n}×${s}`)
        .join(', ');
      const times = results.map((r) => r.ms);
      console.log(
        `GET ${path}: ${results.filter((r) => r.envelope).length}/${size} envelopes (${statuses}); ` +
          `p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, burst ${(performance.now() - burstStart).toFixed(0)} ms`,
      );
    }
  } finally {
    await service.stop();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
