// Every test file gets fresh tables with the development data set, so files never see each
// other's changes. Refuses to run against anything but a local endpoint.
import { randomBytes } from 'node:crypto';
import { closeClients } from '../../lib/store/client';
import { resetClock } from '../../lib/clock';
import { settleJobs } from '../../lib/store/jobs';
import { dropTables, freshTables } from './tables';
import './openapi-hook';

let tablePrefix: string;

beforeAll(async () => {
  tablePrefix = `t${randomBytes(4).toString('hex')}-`;
  await freshTables(tablePrefix);
});

afterEach(async () => {
  // No test's background job may run into the next test.
  await settleJobs();
  resetClock();
});

afterAll(async () => {
  await dropTables(tablePrefix).catch(() => undefined);
  closeClients();
});
