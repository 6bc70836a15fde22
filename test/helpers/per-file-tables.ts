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
  // No test's background job, nor a scheduled message or reminder not yet due, may run into the
  // next test (or, its timer firing later, into the worker's next file).
  await settleJobs();
  clearInProcessSchedules();
  resetClock();
});

afterAll(async () => {
  await removeTables?.().catch(() => undefined);
  closeClients();
});
