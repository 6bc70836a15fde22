// The local SES-compatible store (aws-ses-v2-local, in this process, emails in memory) that
// `npm start` and the tests send email to. The handlers talk to it through the same
// @aws-sdk/client-sesv2 call as to SES (SES_ENDPOINT); it keeps every email it was sent, which
// GET /store lists (development mode's /emails/ page, and the tests that read an email back).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import startSesServer from 'aws-ses-v2-local';
import { closeSesClient } from '../lib/store/emails';

export type LocalSes = { endpoint: string; stop: () => Promise<void> };

/** Starts aws-ses-v2-local on a free port of 127.0.0.1 and points this process at it (SES_ENDPOINT). */
export const startLocalSes = async (): Promise<LocalSes> => {
  const server: Server = await startSesServer({ host: '127.0.0.1', port: 0 });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  process.env.SES_ENDPOINT = endpoint;
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      closeSesClient();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    })());
  return { endpoint, stop };
};
