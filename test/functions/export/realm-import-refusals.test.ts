// What `npm run import-realm` refuses (lib/actions/organization/import-realm.ts), each with its
// message, and what it leaves after: nothing. A refusal comes before anything is written (no
// organization id is even allocated, the subdomain stays free, the unpacked files are gone); an
// import that fails after it started writing (here: the subdomain taken while it wrote) removes
// every item and file it wrote, so nothing of it can be reached.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doRealmImportJob, parseS3Url } from '../../../lib/actions/organization/import-job';
import { doImportRealm, ImportRefusedError } from '../../../lib/actions/organization/import-realm';
import { newRealm } from '../../../lib/actions/way-in/create-realm';
import { config } from '../../../lib/config';
import { realmUrl } from '../../../lib/models/realm';
import { listChannelsOfRealm } from '../../../lib/store/channels';
import { documentClient, tableName } from '../../../lib/store/client';
import { allocateIds } from '../../../lib/store/common';
import { putFile } from '../../../lib/store/files';
import { settleJobs, startJob } from '../../../lib/store/jobs';
import { keys } from '../../../lib/store/keys';
import { getMessagesByIds } from '../../../lib/store/messages';
import * as realmCreationStore from '../../../lib/store/realm-creation';
import { readCounter } from '../../../lib/store/realm-exports';
import * as realmsStore from '../../../lib/store/realms';
import { listGroupsOfRealm } from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { parseImportArgs, runImportCommand } from '../../../scripts/import-realm';
import { archiveClaimingSize, archiveOf, FIXTURE, FIXTURE_FOLDER, fixtureFiles, type FixtureFiles } from '../../../scripts/export-fixture';

const SUBDOMAIN = 'movein';
// This file's own folder to unpack into (config.importWorkDir): other test files' imports, running
// at the same time, unpack into the system's, so the count below is of this file's. (Setting TMPDIR
// here would not do: jest gives a test file its own copy of process.env, which os.tmpdir() never reads.)
const ownTmp = mkdtempSync(join(tmpdir(), 'import-refusals-'));
process.env.IMPORT_WORK_DIR = ownTmp;
afterAll(() => rmSync(ownTmp, { recursive: true, force: true }));
const unpackedFolders = () => readdirSync(ownTmp).filter((name) => name.startsWith('chat-import-')).length;

/** The fixture's files with one changed: `change` edits them in place. */
const changed = (change: (files: FixtureFiles) => void): FixtureFiles => {
  const files = fixtureFiles();
  change(files);
  return files;
};
const realmJson = (files: FixtureFiles) => files.get('realm.json') as Record<string, Record<string, unknown>[]>;
const firstMessages = (files: FixtureFiles) => files.get('messages-000001.json') as Record<string, Record<string, unknown>[]>;

/** Imports `archive` at SUBDOMAIN, expecting `message`; then checks that nothing was written or left. */
const expectRefused = async (archive: Buffer, message: string | RegExp, subdomain = SUBDOMAIN): Promise<void> => {
  const [realms, users, folders] = [await readCounter('realm'), await readCounter('user'), unpackedFolders()];
  const refusal = await doImportRealm(Readable.from(archive), subdomain).then(
    () => undefined,
    (error: Error) => error,
  );
  expect(refusal).toBeInstanceOf(ImportRefusedError);
  if (typeof message === 'string') expect(refusal!.message).toBe(message);
  else expect(refusal!.message).toMatch(message);
  expect(await realmsStore.getByStringId(SUBDOMAIN)).toBeUndefined();
  const lock = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: keys.subdomainLock(SUBDOMAIN), ConsistentRead: true }),
  );
  expect(lock.Item).toBeUndefined();
  expect([await readCounter('realm'), await readCounter('user'), unpackedFolders()]).toEqual([realms, users, folders]);
};

describe('refusing a broken or hostile archive, leaving nothing', () => {
  it('imports the fixture as it is (the refusals below each change one thing of it)', async () => {
    const result = await doImportRealm(Readable.from(await archiveOf(fixtureFiles())), 'fixture-whole');
    expect(result).toMatchObject({ users: 3, channels: 1, messages: 5, reactions: 1, attachments: 1 });
  });

  it.each([
    ['../escaped.json', 'Refusing the archive: member "../escaped.json" is outside the export\'s folder.'],
    ['/etc/cron.d/evil', 'Refusing the archive: member "/etc/cron.d/evil" is outside the export\'s folder.'],
    [
      `${FIXTURE_FOLDER}/../../escaped.json`,
      `Refusing the archive: member "${FIXTURE_FOLDER}/../../escaped.json" is outside the export's folder.`,
    ],
    ['another-folder/realm.json', `Refusing the archive: it holds more than one folder (${FIXTURE_FOLDER}, another-folder).`],
  ])('refuses a member at %s', async (name, message) => {
    await expectRefused(await archiveOf(fixtureFiles(), [{ name, body: '{}' }]), message);
  });

  it('refuses a symbolic link, whose target could be anywhere', async () => {
    await expectRefused(
      await archiveOf(fixtureFiles(), [{ name: `${FIXTURE_FOLDER}/uploads/link`, type: 'symlink', linkname: '/etc/passwd' }]),
      `Refusing the archive: member ${FIXTURE_FOLDER}/uploads/link is a symlink, not a file.`,
    );
  });

  it('refuses a member of 10 GiB from its header, without reading or writing its body', async () => {
    await expectRefused(
      await archiveClaimingSize(`${FIXTURE_FOLDER}/uploads/huge.bin`, 10 * 1024 ** 3),
      `Refusing the archive: member ${FIXTURE_FOLDER}/uploads/huge.bin is 10.0 GiB, past the limit of 1.0 GiB for one file.`,
    );
  });

  it('refuses what is not a .tar.gz file', async () => {
    await expectRefused(
      Buffer.from('just some text, not an archive'),
      /^Refusing the archive: it is not a readable \.tar\.gz file \(.+\)\.$/,
    );
  });

  it.each([
    ['migration_status.json', "Missing migration_status.json file! Make sure you're using the same Zulip version as the exported realm."],
    ['realm.json', 'Missing realm.json file!'],
    ['attachment.json', 'Missing attachment.json file!'],
    [`uploads/${FIXTURE.uploadPath}`, `Missing file uploads/${FIXTURE.uploadPath} of attachment 1.`],
  ])('refuses an archive without %s', async (name, message) => {
    await expectRefused(await archiveOf(changed((files) => files.delete(name))), message);
  });

  it.each([
    [{ server: 'serverless-chat', format: 2 }, 'Export format 2 is not supported: this server reads format 1.'],
    [
      { zulip_version: '2.1.0' },
      'Export was generated on a Zulip version this server does not read (migration_status.json: {"zulip_version":"2.1.0"}).',
    ],
    [
      { something: 'else' },
      'Export was generated on a Zulip version this server does not read (migration_status.json: {"something":"else"}).',
    ],
  ])('refuses the format %j', async (status, message) => {
    await expectRefused(await archiveOf(changed((files) => files.set('migration_status.json', status))), message);
  });

  it.each([
    ['realm.json', /^Malformed JSON in realm\.json: /],
    ['messages-000001.json', /^Malformed JSON in messages-000001\.json: /],
    ['attachment.json', /^Malformed JSON in attachment\.json: /],
  ])('refuses malformed JSON in %s', async (name, message) => {
    await expectRefused(await archiveOf(changed((files) => files.set(name, '{"zerver_message": [{"id": 1,'))), message);
  });

  it.each([
    [
      'a message from nobody',
      (f: FixtureFiles) => (firstMessages(f).zerver_message[0]!.sender = 999),
      'messages-000001.json: zerver_message record 1, field sender: 999 names no user of the export.',
    ],
    [
      'a message to no recipient',
      (f: FixtureFiles) => (firstMessages(f).zerver_message[1]!.recipient = 77),
      'messages-000001.json: zerver_message record 2, field recipient: 77 names no recipient of the export.',
    ],
    [
      'a row of a message the file does not hold',
      (f: FixtureFiles) => (firstMessages(f).zerver_usermessage[0]!.message = 4242),
      'messages-000001.json: zerver_usermessage record 1001001, field message: 4242 names no message of this file of the export.',
    ],
    [
      'a reaction to no message',
      (f: FixtureFiles) => (realmJson(f).zerver_reaction[0]!.message = 4242),
      'realm.json: zerver_reaction record 1, field message: 4242 names no message of the export.',
    ],
    [
      'a subscription of nobody',
      (f: FixtureFiles) => (realmJson(f).zerver_subscription[0]!.user_profile = 5),
      'realm.json: zerver_subscription record 1, field user_profile: 5 names no user of the export.',
    ],
    [
      'a recipient of an unknown type',
      (f: FixtureFiles) => (realmJson(f).zerver_recipient[0]!.type = 9),
      'realm.json: zerver_recipient record 1, field type: unknown type 9.',
    ],
    [
      'an upload path that leaves uploads/',
      (f: FixtureFiles) =>
        ((f.get('attachment.json') as Record<string, Record<string, unknown>[]>).zerver_attachment[0]!.path_id = '../realm.json'),
      'attachment.json: zerver_attachment record 1, field path_id: "../realm.json" is not a file\'s path.',
    ],
    [
      'a user without an email',
      (f: FixtureFiles) => {
        delete realmJson(f).zerver_userprofile[1]!.email;
        delete realmJson(f).zerver_userprofile[1]!.delivery_email;
      },
      'realm.json: zerver_userprofile record 1002, field email: not a string (undefined).',
    ],
    [
      'two rows of one user for one message',
      (f: FixtureFiles) => firstMessages(f).zerver_usermessage.push({ ...firstMessages(f).zerver_usermessage[0]!, id: 1 }),
      'messages-000001.json: zerver_usermessage has two rows of user 1001 for message 1.',
    ],
    [
      'a message id twice',
      (f: FixtureFiles) => (firstMessages(f).zerver_message[1]!.id = 1),
      'messages-000001.json: zerver_message has record 1 twice.',
    ],
  ])('refuses %s', async (_, change, message) => {
    await expectRefused(await archiveOf(changed(change)), message);
  });

  it.each([
    ['ab', 'Subdomain needs to have length 3 or greater.'],
    ['www', 'Subdomain reserved. Please choose a different one.'],
    ['zulip', 'Subdomain reserved. Please choose a different one.'],
    ['Upper', "Subdomain can only have lowercase letters, numbers, and '-'s."],
  ])('refuses the subdomain %s before reading the archive', async (subdomain, message) => {
    await expectRefused(await archiveOf(fixtureFiles()), message, subdomain);
  });

  it('removes everything it wrote when the subdomain is taken while it writes: nothing of it is reachable', async () => {
    const RACED = 'movein-raced';
    const realmsBefore = await readCounter('realm');
    const usersBefore = await readCounter('user');
    const refusal = await doImportRealm(Readable.from(await archiveOf(fixtureFiles())), RACED, {
      log: async (line) => {
        if (line !== 'claiming the subdomain') return;
        // Another organization takes the subdomain between the check and the claim.
        await realmCreationStore.claimSubdomain(newRealm(await allocateIds('realm'), RACED, 'Faster', 0));
      },
    }).catch((error: Error) => error);
    expect(refusal).toEqual(new ImportRefusedError('Subdomain already in use. Please choose a different one.'));
    const importId = realmsBefore + 1;
    expect((await realmsStore.getByStringId(RACED))!.id).not.toBe(importId);
    expect(await realmsStore.get(importId)).toBeUndefined();
    expect(await usersStore.listOfRealm(importId)).toEqual([]);
    expect(await listGroupsOfRealm(importId)).toEqual([]);
    expect(await listChannelsOfRealm(importId)).toEqual([]);
    expect(await getMessagesByIds(importId, [1, 2, 3, 4, 5])).toEqual([]);
    const usersAfter = await readCounter('user');
    expect(usersAfter).toBeGreaterThan(usersBefore);
    for (let id = usersBefore + 1; id <= usersAfter; id++) expect(await usersStore.get(importId, id)).toBeUndefined();
    const s3 = new S3Client({ region: config.region(), endpoint: config.s3Endpoint(), forcePathStyle: true });
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: config.uploadsBucket(), Prefix: `${importId}/` }));
    s3.destroy();
    expect(listed.Contents ?? []).toEqual([]);
  });
});

describe('the realmImport job (an archive in S3)', () => {
  /** The job's own lines (lib/log.ts), without the Logger's level, time and service. */
  const logged = (spy: jest.SpyInstance) =>
    spy.mock.calls
      .map(([line]) => JSON.parse(String(line)) as Record<string, unknown>)
      .filter((l) => l.message === 'realmImport')
      .map(({ level: _l, message: _m, timestamp: _t, service: _s, sampling_rate: _r, ...fields }) => fields);

  it('imports the archive at s3://<bucket>/<key>, streamed, and logs the new organization', async () => {
    await putFile('imports/fixture.tar.gz', await archiveOf(fixtureFiles()), 'application/gzip');
    const spy = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      await startJob('realmImport', { bucket: config.uploadsBucket(), key: 'imports/fixture.tar.gz', subdomain: 'from-s3' });
      await settleJobs();
      const realm = (await realmsStore.getByStringId('from-s3'))!;
      expect(logged(spy).at(-1)).toEqual({
        bucket: config.uploadsBucket(),
        key: 'imports/fixture.tar.gz',
        subdomain: 'from-s3',
        imported: realm.id,
        users: 3,
        channels: 1,
        messages: 5,
        reactions: 1,
        attachments: 1,
      });
    } finally {
      spy.mockRestore();
    }
  });

  it('logs a refusal and ends, leaving nothing: a missing object, a hostile archive', async () => {
    await putFile('imports/escaping.tar.gz', await archiveOf(fixtureFiles(), [{ name: '../x', body: '' }]), 'application/gzip');
    const spy = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    const realms = await readCounter('realm');
    try {
      // A run as the job's function makes it, and one started as the CLI starts it.
      await doRealmImportJob({ bucket: config.uploadsBucket(), key: 'imports/nothing-here.tar.gz', subdomain: SUBDOMAIN });
      await startJob('realmImport', { bucket: config.uploadsBucket(), key: 'imports/escaping.tar.gz', subdomain: SUBDOMAIN });
      await settleJobs();
      expect(
        logged(spy)
          .map((l) => l.refused)
          .filter(Boolean),
      ).toEqual([
        `No archive at s3://${config.uploadsBucket()}/imports/nothing-here.tar.gz.`,
        'Refusing the archive: member "../x" is outside the export\'s folder.',
      ]);
      expect(await readCounter('realm')).toBe(realms);
      expect(await realmsStore.getByStringId(SUBDOMAIN)).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });

  it('reads its command line: an archive and --subdomain, in either order', () => {
    expect(parseImportArgs(['a.tar.gz', '--subdomain', 'team'])).toEqual({ archive: 'a.tar.gz', subdomain: 'team' });
    expect(parseImportArgs(['--subdomain', 'team', 's3://b/k.tar.gz'])).toEqual({ archive: 's3://b/k.tar.gz', subdomain: 'team' });
    expect(parseImportArgs(['a.tar.gz'])).toBeUndefined();
    expect(parseS3Url('s3://bucket/imports/a.tar.gz')).toEqual({ bucket: 'bucket', key: 'imports/a.tar.gz' });
    expect(parseS3Url('/tmp/a.tar.gz')).toBeUndefined();
  });
});

describe('npm run import-realm', () => {
  it('imports an archive file, streamed from disk, and prints the new organization and its counts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cli-test-'));
    const file = join(dir, 'export.tar.gz');
    writeFileSync(file, await archiveOf(fixtureFiles()));
    const lines: string[] = [];
    try {
      await runImportCommand([file, '--subdomain', 'from-file'], (line) => lines.push(line));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const realm = (await realmsStore.getByStringId('from-file'))!;
    expect(lines.at(-1)).toBe(
      `Imported organization ${realm.id} at ${realmUrl(realm)}: 3 users, 1 channels, 5 messages, 1 reactions, 1 uploads. ` +
        'Its users set their passwords through password reset.',
    );
    expect(lines).toContain('  claiming the subdomain');
  });

  it.each([
    [['export.tar.gz'], 'usage: npm run import-realm -- <export.tar.gz | s3://bucket/key> --subdomain <subdomain>'],
    [['/nonexistent/export.tar.gz', '--subdomain', 'nowhere'], 'No archive at /nonexistent/export.tar.gz.'],
  ])('refuses %j: %s', async (argv, message) => {
    await expect(runImportCommand(argv, () => undefined)).rejects.toThrow(new ImportRefusedError(message));
  });
});
