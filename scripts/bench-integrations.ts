// Benchmark of integrations against DynamoDB Local: what an incoming webhook request pays
// (POST /api/v1/external/json as the development data's incoming-webhook bot, into a channel),
// and an outgoing webhook's round trip: a send that mentions an outgoing webhook bot (its request
// only starts the job), then the outgoingWebhook job, which posts to the bot's service (a local
// HTTP server answering at once) and sends its answer as the bot.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as webhookHandler } from '../functions/webhooks/incoming';
import { checkCreateBot } from '../lib/actions/people/bots';
import { BotType } from '../lib/models/user';
import * as channelsStore from '../lib/store/channels';
import { dbMetrics } from '../lib/store/client';
import { settleJobs } from '../lib/store/jobs';
import * as realmsStore from '../lib/store/realms';
import * as usersStore from '../lib/store/users';
import { sendRequest } from './bench-messages';
import { percentile, printTable, type Cost } from './bench-util';

const REALM = 2;
const RUNS = Number(process.env.BENCH_INTEGRATION_RUNS ?? 30);

type Split = { request: Cost & { p50: number; p99: number }; job: Cost & { p50: number; p99: number } };

/** `n` requests: each one's cost and latency until it answers, then its jobs' cost and the time until they are done. */
const measureSplit = async (n: number, run: (i: number) => Promise<{ statusCode: number; body: string }>): Promise<Split> => {
  const answeredTimes: number[] = [];
  const doneTimes: number[] = [];
  const request = { requests: 0, readUnits: 0, writeUnits: 0 };
  const job = { requests: 0, readUnits: 0, writeUnits: 0 };
  for (let i = 0; i < n; i += 1) {
    dbMetrics.reset();
    const started = performance.now();
    const out = await run(i);
    answeredTimes.push(performance.now() - started);
    if (out.statusCode !== 200) throw new Error(`request failed: ${out.body}`);
    const answered = dbMetrics.snapshot();
    await settleJobs();
    doneTimes.push(performance.now() - started);
    const settled = dbMetrics.snapshot();
    for (const k of ['requests', 'readUnits', 'writeUnits'] as const) {
      request[k] += answered[k];
      job[k] += settled[k] - answered[k];
    }
  }
  const per = (c: typeof request, times: number[]) => ({
    requests: c.requests / n,
    readUnits: c.readUnits / n,
    writeUnits: c.writeUnits / n,
    ms: times.reduce((a, b) => a + b, 0) / n,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  });
  return { request: per(request, answeredTimes), job: per(job, doneTimes) };
};

const webhookRequest = (apiKey: string, channelId: number, body: string) =>
  webhookHandler({
    version: '2.0',
    routeKey: 'POST /external/{integration_name+}',
    rawPath: '/api/v1/external/json',
    rawQueryString: new URLSearchParams({ api_key: apiKey, stream: String(channelId) }).toString(),
    queryStringParameters: { api_key: apiKey, stream: String(channelId) },
    pathParameters: { integration_name: 'json' },
    headers: { 'content-type': 'application/json', host: 'localhost', 'user-agent': 'bench' },
    body,
    isBase64Encoded: false,
    requestContext: { http: { method: 'POST', path: '/api/v1/external/json', sourceIp: '127.0.0.1' } },
  } as never) as Promise<{ statusCode: number; body: string }>;

export const benchIntegrations = async (): Promise<void> => {
  console.log('\n## Integrations: an incoming webhook request, an outgoing webhook round trip\n');
  const hookBot = (await usersStore.get(REALM, 17))!;
  const channel = (await channelsStore.listChannelsOfRealm(REALM)).find((c) => !c.inviteOnly && !c.isArchived)!;
  const rows: [string, Cost & { p50?: number; p99?: number }][] = [];
  const payload = (i: number) => JSON.stringify({ build: i, status: 'passed', url: `https://ci.example.com/${i}` });
  await measureSplit(3, (i) => webhookRequest(hookBot.apiKey, channel.id, payload(i)));
  const incoming = await measureSplit(RUNS, (i) => webhookRequest(hookBot.apiKey, channel.id, payload(i)));
  rows.push([`incoming webhook (json) into a channel of ${channel.name}`, incoming.request]);

  const service = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"content": "pong"}');
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  try {
    const [iago] = await usersStore.listByEmail('iago@zulip.com');
    const realm = (await realmsStore.get(REALM))!;
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/`;
    const bot = await checkCreateBot(iago, realm, {
      fullName: 'Bench Echo',
      shortName: `bench-echo-${Date.now()}`,
      botType: BotType.OUTGOING_WEBHOOK,
      payloadUrl: url,
      interfaceType: 1,
    });
    const auth = `Basic ${Buffer.from(`${iago.email}:${iago.apiKey}`).toString('base64')}`;
    const mention = (i: number) =>
      sendRequest(auth, { type: 'stream', to: String(channel.id), topic: 'bench bots', content: `@**${bot.fullName}** ping ${i}` });
    await measureSplit(3, mention);
    const outgoing = await measureSplit(RUNS, mention);
    rows.push(['send mentioning an outgoing webhook bot: its request', outgoing.request]);
    rows.push(['  until the reply is sent: the outgoingWebhook job (DynamoDB), time from the send', outgoing.job]);
  } finally {
    await new Promise<void>((resolve) => service.close(() => resolve()));
  }
  printTable(rows);
  console.log(`\n${RUNS} runs each (BENCH_INTEGRATION_RUNS); the job's time counts from the send to the bot's reply being delivered.`);
};
