// The realmImport job's runs (lib/actions/organization/import-run.ts): the fixture export of 8
// messages, 3 messages a run (IMPORT_RUN_MESSAGES), so three runs, each from the checkpoint the
// last one handed on. A run delivered twice and a run that fails half-way and is tried again give
// the same organization as an import in one run, with nothing written twice and no id allocated
// twice; a run that fails its last attempt, or finds the archive broken, removes everything every
// run wrote, its checkpoint and its state, leaves the subdomain free, and logs why.
import { Readable } from 'node:stream';
import { JOBS } from '../../../lib/actions/jobs';
import { doRealmImportJob, type ImportJob } from '../../../lib/actions/organization/import-job';
import { doImportRealm } from '../../../lib/actions/organization/import-realm';
import { config } from '../../../lib/config';
import { listUploadsOfUser, getUploadSpaceUsed } from '../../../lib/store/attachments';
import { listChannelsOfRealm } from '../../../lib/store/channels';
import { listObjectKeys, putFile } from '../../../lib/store/files';
import { claimRun, createCheckpoint, getCheckpoint } from '../../../lib/store/imports';
import { advanceClock, nowMs, resetClock } from '../../../lib/clock';
import { defineJob, runJobsInProcess, settleJobs, startJob } from '../../../lib/store/jobs';
import { getMessagesByIds } from '../../../lib/store/messages';
import { raiseCounter } from '../../../lib/store/common';
import { readCounter } from '../../../lib/store/realm-exports';
import * as realmsStore from '../../../lib/store/realms';
import { listGroupsOfRealm } from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { archiveOf, fixtureFiles } from '../../../scripts/export-fixture';
import { startDynamoFaults, type DynamoFaults, type FaultRequest } from '../../helpers/dynamo-faults';

const MESSAGES = 8;
const COUNTERS = ['realm', 'user', 'channel', 'userGroup', 'attachment'];

let lines: Record<string, unknown>[] = [];
let faults: DynamoFaults | undefined;

beforeEach(() => {
  lines = [];
  jest.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(JSON.parse(line)));
  // Each failed attempt logs its error (lib/store/jobs.ts): expected here.
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  process.env.IMPORT_RUN_MESSAGES = '3';
});

afterEach(async () => {
  await faults?.stop();
  faults = undefined;
  delete process.env.IMPORT_RUN_MESSAGES;
  jest.restoreAllMocks();
  resetClock();
  runJobsInProcess(JOBS);
});

/** The job's own lines, without the Logger's fields. */
const jobLines = () =>
  lines
    .filter((l) => l.message === 'realmImport')
    .map(({ level: _l, message: _m, timestamp: _t, service: _s, sampling_rate: _r, ...fields }) => fields);

const counters = async () => Promise.all(COUNTERS.map((c) => readCounter(c)));

/** Puts the fixture archive in S3 and runs the job at `subdomain` (its runs as `deliver` hands them on). */
const importByJob = async (subdomain: string, deliver?: (job: ImportJob) => Promise<void>): Promise<ImportJob> => {
  const job = { bucket: config.uploadsBucket(), key: `imports/${subdomain}.tar.gz`, subdomain };
  await putFile(job.key, await archiveOf(fixtureFiles({ messages: MESSAGES })), 'application/gzip');
  if (deliver) defineJob<ImportJob>('realmImport', deliver);
  await startJob('realmImport', job);
  await settleJobs();
  return job;
};

/** What an import made that a duplicate write or a second allocation would change. */
const organizationOf = async (realmId: number) => {
  const users = await usersStore.listOfRealm(realmId);
  return {
    users: users.map((u) => u.email).sort(),
    channels: (await listChannelsOfRealm(realmId)).map((c) => [c.name, c.subscriberCount, c.firstMessageId]),
    groups: (await listGroupsOfRealm(realmId)).length,
    // Upload path ids are random: each import links its own.
    messages: (await getMessagesByIds(realmId, [...Array(MESSAGES + 2).keys()]))
      .map((m) => [m.id, m.content.replace(/\/user_uploads\/[^)]+/g, '/user_uploads/…')])
      .sort(),
    messageCounter: await readCounter(`message#${realmId}`),
    uploadSpace: await getUploadSpaceUsed(realmId),
    uploads: (await Promise.all(users.map((u) => listUploadsOfUser(u.id)))).flat().map((u) => u.name),
  };
};

/** Nothing of an import under `realmId` is left: organization, users, groups, channels, messages, its state and checkpoint. */
const expectNothingLeft = async (job: ImportJob, realmId: number, usersFrom: number, usersTo: number) => {
  // The import had allocated its organization and users (so the checks below are not empty ones).
  expect(await readCounter('realm')).toBe(realmId);
  expect(usersTo).toBeGreaterThan(usersFrom);
  expect(await realmsStore.getByStringId(job.subdomain)).toBeUndefined();
  expect(await realmsStore.get(realmId)).toBeUndefined();
  expect(await usersStore.listOfRealm(realmId)).toEqual([]);
  expect(await listGroupsOfRealm(realmId)).toEqual([]);
  expect(await listChannelsOfRealm(realmId)).toEqual([]);
  expect(await getMessagesByIds(realmId, [...Array(MESSAGES + 1).keys()])).toEqual([]);
  for (let id = usersFrom + 1; id <= usersTo; id++) expect(await usersStore.get(realmId, id)).toBeUndefined();
  expect(await listObjectKeys(config.uploadsBucket(), `${realmId}/`)).toEqual([]);
  expect(await listObjectKeys(config.uploadsBucket(), `${job.key}.import/`)).toEqual([]);
  expect(await getCheckpoint(job)).toBeUndefined();
};

/** A BatchWriteItem that puts message `n` of the organization `realmId`. */
const putsMessage = (realmId: number, n: number) => (req: FaultRequest) =>
  req.op === 'BatchWriteItem' &&
  JSON.stringify(req.body).includes('PutRequest') &&
  JSON.stringify(req.body).includes(`"MSG#${realmId}#${n}"`);

let oneRun: Awaited<ReturnType<typeof organizationOf>>;
let oneRunAllocates: number[];
let oneRunCounts: Record<string, number>;

beforeAll(async () => {
  const importInOneRun = async (subdomain: string) =>
    doImportRealm(Readable.from(await archiveOf(fixtureFiles({ messages: MESSAGES }))), subdomain);
  // Tables are this file's, the uploads bucket is shared: organization ids apart from other import
  // tests' keep their uploads (under `<realm id>/`) apart.
  await raiseCounter('realm', 2999);
  // The first import of a server also makes its system bots.
  await importInOneRun('runs-in-one-first');
  const before = await counters();
  const result = await importInOneRun('runs-in-one');
  oneRunAllocates = (await counters()).map((n, i) => n - before[i]!);
  oneRun = await organizationOf(result.realm.id);
  const { realm: _realm, writeUnits: _units, ...counts } = result;
  oneRunCounts = counts;
}, 60_000);

describe('the realmImport job in several runs', () => {
  it('hands its checkpoint on twice and ends with the organization an import in one run makes, its state removed', async () => {
    const before = await counters();
    const job = await importByJob('runs-plain');
    const realm = (await realmsStore.getByStringId('runs-plain'))!;
    expect(jobLines().filter((l) => l.checkpoint !== undefined)).toEqual([
      { ...job, checkpoint: 3, next: 2 },
      { ...job, run: 2, checkpoint: 6, next: 3 },
    ]);
    expect(jobLines().at(-1)).toEqual({ ...job, run: 3, imported: realm.id, ...oneRunCounts });
    expect(oneRunCounts.messages).toBe(MESSAGES);
    expect(await organizationOf(realm.id)).toEqual(oneRun);
    expect((await counters()).map((n, i) => n - before[i]!)).toEqual(oneRunAllocates);
    expect(await listObjectKeys(job.bucket, `${job.key}.import/`)).toEqual([]);
    expect(await getCheckpoint(job)).toBeUndefined();
  });

  it('writes nothing twice and allocates nothing twice when each run is delivered twice at once', async () => {
    const before = await counters();
    const job = await importByJob('runs-twice', async (p) => {
      await Promise.all([doRealmImportJob(p), doRealmImportJob(p)]);
    });
    const realm = (await realmsStore.getByStringId('runs-twice'))!;
    expect(await organizationOf(realm.id)).toEqual(oneRun);
    expect((await counters()).map((n, i) => n - before[i]!)).toEqual(oneRunAllocates);
    expect(jobLines().filter((l) => l.imported !== undefined)).toHaveLength(1);
    expect(jobLines().filter((l) => l.skipped !== undefined).length).toBeGreaterThanOrEqual(3);
    expect(await getCheckpoint(job)).toBeUndefined();
  });

  it('goes on from its checkpoint when a later run fails half-way and is tried again: nothing duplicated, nothing skipped', async () => {
    const before = await counters();
    const realmId = before[0]! + 1;
    faults = await startDynamoFaults();
    let failing = true;
    faults.inject({ fault: 'error500', when: (req) => failing && putsMessage(realmId, 5)(req), times: Infinity });
    const attempts: number[] = [];
    await importByJob('runs-retried', async (p) => {
      attempts.push(p.run ?? 1);
      await doRealmImportJob(p).catch((error: unknown) => {
        failing = false;
        throw error;
      });
    });
    // Run 2 (messages 4 to 6) failed once, then Lambda's retry of it went on from its checkpoint.
    expect(attempts).toEqual([1, 2, 2, 3]);
    expect(faults.dealt().length).toBeGreaterThan(0);
    expect(await organizationOf(realmId)).toEqual(oneRun);
    expect((await counters()).map((n, i) => n - before[i]!)).toEqual(oneRunAllocates);
  });

  it('takes over a run whose attempt died without a word once its claim has run out', async () => {
    const job = { bucket: config.uploadsBucket(), key: 'imports/runs-died.tar.gz', subdomain: 'runs-died' };
    await putFile(job.key, await archiveOf(fixtureFiles({ messages: MESSAGES })), 'application/gzip');
    await createCheckpoint(job);
    // An attempt claimed run 1, then its function timed out: nothing released the claim.
    expect(await claimRun(job, 1, 'a dead attempt', nowMs(), nowMs() + 960_000)).toMatchObject({ run: 1, failures: 0 });
    await doRealmImportJob(job);
    expect(jobLines().at(-1)).toEqual({ ...job, skipped: expect.stringMatching(/another attempt holds it/) });
    advanceClock(961_000);
    await startJob('realmImport', job);
    await settleJobs();
    const realm = (await realmsStore.getByStringId('runs-died'))!;
    expect(await organizationOf(realm.id)).toEqual(oneRun);
    expect(await getCheckpoint(job)).toBeUndefined();
  });

  it('removes what every run wrote when a later run fails its last attempt, leaves the subdomain free and logs the failure', async () => {
    const before = await counters();
    const realmId = before[0]! + 1;
    faults = await startDynamoFaults();
    faults.inject({ fault: 'error500', when: putsMessage(realmId, 8), times: Infinity });
    const job = await importByJob('runs-failing');
    await faults.stop();
    faults = undefined;
    const failed = jobLines().filter((l) => l.failed !== undefined);
    expect(failed).toEqual([{ ...job, run: 3, failed: expect.stringMatching(/^Gave up after 3 failed attempts: /) }]);
    await expectNothingLeft(job, realmId, before[1]!, await readCounter('user'));
  });

  it('removes what earlier runs wrote when a later run finds the archive broken, and logs the refusal', async () => {
    const before = await counters();
    const realmId = before[0]! + 1;
    const job = await importByJob('runs-broken', async (p) => {
      if (p.run === 2) await putFile(p.key, await archiveOf(fixtureFiles(), [{ name: '../x', body: '' }]), 'application/gzip');
      await doRealmImportJob(p);
    });
    expect(jobLines().filter((l) => l.refused !== undefined)).toEqual([
      { ...job, run: 2, refused: 'Refusing the archive: member "../x" is outside the export\'s folder.' },
    ]);
    await expectNothingLeft(job, realmId, before[1]!, await readCounter('user'));
  });
});
