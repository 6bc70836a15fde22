// Every test file gets fresh tables with the development data set, so files never see each
// other's changes. Refuses to run against anything but a local endpoint.
import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createTables } from '../../scripts/local-dynamo';
import { seedDevRealm } from '../../scripts/seed';
import { closeClients, documentClient, tableName } from '../../lib/store/client';
import { resetClock } from '../../lib/clock';
import { settleJobs } from '../../lib/store/jobs';
import './openapi-hook';

beforeAll(async () => {
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? '';
  if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(endpoint))
    throw new Error(`tests refuse a non-local DynamoDB endpoint: ${endpoint}`);
  process.env.TABLE_PREFIX = `t${randomBytes(4).toString('hex')}-`;
  delete process.env.TABLE_MAIN;
  delete process.env.TABLE_EVENTS;
  await createTables();
  await seedDevRealm({ fresh: true });
});

afterEach(async () => {
  // No test's background job may run into the next test.
  await settleJobs();
  resetClock();
});

afterAll(async () => {
  await Promise.all(
    (['main', 'events'] as const).map((t) =>
      documentClient()
        .send(new DeleteTableCommand({ TableName: tableName(t) }))
        .catch(() => undefined),
    ),
  );
  closeClients();
});
