// The front door of GET /events, priced for `npm run bench connected` (docs/operations.md,
// "The long-poll's front door"). Today's edge is the HTTP API: its integrations stop at 30 s, so a
// poll lasts config.longPollSeconds (20 s) and each costs an API request. The alternative priced
// here, and not declared: CloudFront routing /api/v1/events and /json/events to an Application Load
// Balancer with the events function as its Lambda target (the rest to the HTTP API, one base URL),
// which lets a poll last upstream's heartbeat interval. Putting every route behind the ALB alone is
// not an option: a Lambda target takes and returns at most 1 MB (uploads of up to 4 MiB, a large
// organization's register), and a listener holds 100 rules where this service has ~180 functions.
import { config } from '../lib/config';
import type { ConnectedRates } from './bench-connected';

/** List prices, us-east-1, USD (2026-11). */
export const EDGE_PRICES = {
  /** CloudFront: HTTPS requests, $0.0100 per 10,000; data out to the internet, first 10 TB, per GB. */
  cloudFrontRequest: 0.01 / 10_000,
  cloudFrontGb: 0.085,
  /** Application Load Balancer: an hour, and an LCU-hour (3,000 active connections, 25 new a second, or 1 GB an hour to Lambda). */
  albHour: 0.0225,
  albLcuHour: 0.008,
  activeConnectionsPerLcu: 3000,
} as const;

/**
 * How long a poll lasts behind the load balancer, as `--param eventsEdge=cloudfront` deploys it
 * (edge/index.js): upstream's heartbeat interval, under CloudFront's 60 s origin response timeout.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const ALB_POLL_SECONDS = (require('../edge/index.js') as { EDGE_POLL_SECONDS: number }).EDGE_POLL_SECONDS;
/** A heartbeat's response with its headers, as CloudFront bills its bytes out, about. */
const RESPONSE_BYTES = 450;

/** The rates with idle polls `seconds` long instead of config.longPollSeconds: the delivering polls stay as measured. */
export const withPollLength = (r: ConnectedRates, seconds: number): ConnectedRates => {
  const idle = (r.idlePollsPerSec * config.longPollSeconds()) / seconds;
  return { ...r, pollsPerSec: r.pollsPerSec - r.idlePollsPerSec + idle, idlePollsPerSec: idle };
};

/** What the CloudFront-and-ALB edge adds per connected client-month, item by item (`pollsPerSec` per client). */
export const albEdgeItems = (pollsPerSec: number, clients: number, month: number): Record<string, number> => {
  const hours = month / 3600;
  // Each waiting poll holds one connection from CloudFront to the ALB; CloudFront reuses them, so
  // active connections, not new ones or bytes, set the LCUs.
  const lcus = clients / EDGE_PRICES.activeConnectionsPerLcu;
  return {
    cloudFrontRequests: pollsPerSec * month * EDGE_PRICES.cloudFrontRequest,
    cloudFrontTransfer: ((pollsPerSec * month * RESPONSE_BYTES) / 1e9) * EDGE_PRICES.cloudFrontGb,
    albHours: (EDGE_PRICES.albHour * hours) / clients,
    albLcus: (lcus * EDGE_PRICES.albLcuHour * hours) / clients,
  };
};
