// Every test file gets fresh tables with the development data set, so files never see each
// other's changes. Refuses to run against anything but a local endpoint.
import { closeClients } from '../../lib/store/client';
import { resetClock } from '../../lib/clock';
import { settleJobs } from '../../lib/store/jobs';
import { clearInProcessSchedules } from '../../lib/store/schedules';
import { tablesFromTemplate } from './tables';
import './openapi-hook';

let removeTables: (() => Promise<void>) | undefined;

beforeAll(async () => {
  removeTables = await tablesFromTemplate();
});

afterEach(async () => {
  // No test's background job may run into the next test.
  await settleJobs();
  resetClock();
});

afterAll(async () => {
  // A scheduled message or reminder not yet due must not fire during the worker's next file.
  clearInProcessSchedules();
  await removeTables?.().catch(() => undefined);
  closeClients();
});
