// POST /export/realm, GET /export/realm, GET /export/realm/consents, DELETE
// /export/realm/{export_id} and the download of an export's export_url, as upstream's zerver/views/realm_export.py and test_realm_export.py
// describe them, and the archive the realmExport job writes (upstream's layout, zerver/lib/export.py).
import { handler as consentsHandler } from '../../../functions/export/consents';
import { handler as createHandler } from '../../../functions/export/create';
import { handler as deleteHandler } from '../../../functions/export/delete';
import { handler as downloadHandler } from '../../../functions/export/download';
import { handler as listHandler } from '../../../functions/export/list';
import { handler as uploadHandler } from '../../../functions/uploads/upload';
import { doRealmExportRun, type ExportJob } from '../../../lib/actions/organization/export-job';
import { advanceClock } from '../../../lib/clock';
import { flagsOfMask } from '../../../lib/models/export-format';
import { raiseCounter } from '../../../lib/store/common';
import { getFile } from '../../../lib/store/files';
import { defineJob, holdJobs, settleJobs } from '../../../lib/store/jobs';
import { getMessagesByIds, getUserMessage } from '../../../lib/store/messages';
import * as exportsStore from '../../../lib/store/realm-exports';
import * as usersStore from '../../../lib/store/users';
import { listChannelsOfRealm } from '../../../lib/store/channels';
import { atPath, buildEvent, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { jsonMember, readArchive } from '../../helpers/export-archive';
import { sendMessageId } from '../../helpers/messages';
import { multipart } from '../../helpers/multipart';
import { PageClient } from '../../helpers/web';
import { devPassword } from '../../../lib/passwords';

const REALM = 2;
const [HAMLET, IAGO, OTHELLO] = [10, 11, 12];

// The calls leave the jobs to the test (exportNow settles them; a test that holds them sees an export pending).
const start = (as: string, params: Record<string, unknown> = {}) =>
  call(createHandler, { method: 'POST', path: '/export/realm', as, params, settleJobs: false });
const list = async (as = 'iago@zulip.com') =>
  expectSuccess(await call(listHandler, { method: 'GET', path: '/export/realm', as, settleJobs: false })).exports;
const del = (as: string, id: number | string) =>
  call(deleteHandler, { ...atPath('DELETE', '/export/realm/{export_id}', { export_id: id }), as, settleJobs: false });

/** Starts an export as Iago, runs its job to the end, and returns it with its archive. */
const exportNow = async (exportType = 'public') => {
  const { id } = expectSuccess(await start('iago@zulip.com', { export_type: exportType }));
  await settleJobs();
  const row = (await exportsStore.getRealmExport(REALM, id))!;
  expect(row.status).toBe('succeeded');
  return { id: id as number, row, archive: await readArchive((await getFile(row.exportPath!))!) };
};

const messageFiles = (archive: Awaited<ReturnType<typeof readArchive>>) =>
  [...archive.files.keys()].filter((name) => /^messages-\d{6}\.json$/.test(name)).sort();
const exportedMessages = (archive: Awaited<ReturnType<typeof readArchive>>) =>
  messageFiles(archive).flatMap((name) => jsonMember(archive, name).zerver_message as Record<string, any>[]);
const exportedRows = (archive: Awaited<ReturnType<typeof readArchive>>) =>
  messageFiles(archive).flatMap((name) => jsonMember(archive, name).zerver_usermessage as Record<string, any>[]);

/** Every stored message of the organization, by id. */
const storedMessages = async () => {
  const last = await exportsStore.readCounter(`message#${REALM}`);
  return getMessagesByIds(
    REALM,
    Array.from({ length: last }, (_, i) => i + 1),
  );
};

// Each test runs a week after the last (the clock is reset after each), so earlier exports do not count toward the rate limit.
let weeks = 0;
beforeEach(() => advanceClock(++weeks * 8 * 24 * 3600 * 1000));
afterEach(() => settleJobs());

describe('POST /export/realm', () => {
  it('refuses a member: "Must be an organization administrator"', async () => {
    expectError(await start('hamlet@zulip.com'), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  });

  it('starts a public export: pending at first, then listed with its download link, each change sent to the administrators only', async () => {
    const admin = await openQueue('iago@zulip.com', { eventTypes: ['realm_export'] });
    const member = await openQueue('hamlet@zulip.com');
    holdJobs();
    const { id } = expectSuccess(await start('iago@zulip.com'));
    const pending = (await list()).find((e: any) => e.id === id);
    expect(pending).toEqual({
      id,
      acting_user_id: IAGO,
      export_time: expect.any(Number),
      deleted_timestamp: null,
      failed_timestamp: null,
      export_url: null,
      pending: true,
      export_type: 'public',
    });
    await settleJobs();
    const done = (await list()).find((e: any) => e.id === id);
    expect(done.pending).toBe(false);
    expect(done.export_url).toMatch(
      new RegExp(`^http://[^/]+/user_avatars/exports/${REALM}/[A-Za-z0-9_-]+/zulip-export-[a-z0-9_-]{8}\\.tar\\.gz$`),
    );
    const events = await admin.drain();
    expect(events.map((e) => e.exports.find((x: any) => x.id === id).pending)).toEqual([true, false]);
    expect(await member.drain()).toEqual([]);
  });

  it('writes upstream layout: realm.json, message files of public channels only, attachment.json and the uploaded files', async () => {
    const upload = expectSuccess(
      await call(uploadHandler, {
        method: 'POST',
        path: '/user_uploads',
        as: 'hamlet@zulip.com',
        rawBody: multipart([{ filename: 'notes.txt', content: Buffer.from('export me') }]),
      }),
    );
    const linking = await sendMessageId('hamlet@zulip.com', {
      type: 'stream',
      to: 'Verona',
      topic: 'files',
      content: `[notes](${upload.url})`,
    });
    const { archive } = await exportNow();
    const realm = jsonMember(archive, 'realm.json');
    expect(realm.zerver_realm[0]).toMatchObject({ id: REALM, string_id: 'zulip' });
    const users = await usersStore.listOfRealm(REALM);
    expect(realm.zerver_userprofile.map((u: any) => u.id).sort()).toEqual(users.map((u) => u.id).sort());
    const channels = await listChannelsOfRealm(REALM);
    expect(realm.zerver_stream.map((c: any) => c.name).sort()).toEqual(channels.map((c) => c.name).sort());
    const publicIds = new Set(channels.filter((c) => !c.inviteOnly).map((c) => c.id));
    const expected = (await storedMessages()).filter((m) => m.streamId !== null && publicIds.has(m.streamId));
    const messages = exportedMessages(archive);
    expect(messages.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    const byId = new Map(expected.map((m) => [m.id, m]));
    for (const m of messages) {
      const stored = byId.get(m.id)!;
      expect([m.sender, m.subject, m.content, m.date_sent]).toEqual([stored.senderId, stored.topic, stored.content, stored.dateSent]);
      const recipient = realm.zerver_recipient.find((r: any) => r.id === m.recipient);
      expect(recipient).toEqual({ id: m.recipient, type: 2, type_id: stored.streamId });
    }
    const attachments = jsonMember(archive, 'attachment.json').zerver_attachment;
    expect(attachments).toEqual([expect.objectContaining({ path_id: upload.url.replace(/^\/user_uploads\//, ''), messages: [linking] })]);
    expect(archive.files.get(`uploads/${attachments[0].path_id}`)?.toString()).toBe('export me');
    expect(jsonMember(archive, 'uploads/records.json')).toEqual([expect.objectContaining({ path: attachments[0].path_id, size: 9 })]);
    expect(jsonMember(archive, 'migration_status.json')).toMatchObject({ server: 'serverless-chat', format: 1 });
  });

  it('keeps the private state of members who did not consent out of a public export: their rows keep only "read"', async () => {
    const id = await sendMessageId('iago@zulip.com', { type: 'stream', to: 'Verona', topic: 'stars', content: 'hi @**King Hamlet**' });
    const { archive } = await exportNow();
    const rows = exportedRows(archive).filter((r) => r.message === id);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      const stored = (await getUserMessage(row.user_profile, id))!;
      expect(flagsOfMask(row.flags_mask)).toEqual(stored.flags.filter((f) => f === 'read'));
    }
    expect((await getUserMessage(HAMLET, id))!.flags).toContain('mentioned');
  });

  it('adds to a full export the direct messages of members who consented, and their own flags', async () => {
    await usersStore.updateSettings(REALM, OTHELLO, { allow_private_data_export: true });
    const withOthello = await sendMessageId('hamlet@zulip.com', { type: 'private', to: [OTHELLO], content: 'to a consenting member' });
    const withoutConsent = await sendMessageId('hamlet@zulip.com', { type: 'private', to: [IAGO], content: 'between two who did not' });
    try {
      const { archive } = await exportNow('full_with_consent');
      const ids = exportedMessages(archive).map((m) => m.id);
      expect(ids).toContain(withOthello);
      expect(ids).not.toContain(withoutConsent);
      const realm = jsonMember(archive, 'realm.json');
      expect(realm.zerver_userprofile.find((u: any) => u.id === OTHELLO).allow_private_data_export).toBe(true);
      const dm = exportedMessages(archive).find((m) => m.id === withOthello)!;
      expect(realm.zerver_recipient.find((r: any) => r.id === dm.recipient)).toMatchObject({ type: 1, type_id: OTHELLO });
      const { archive: publicArchive } = await exportNow('public');
      expect(exportedMessages(publicArchive).map((m) => m.id)).not.toContain(withOthello);
    } finally {
      await usersStore.updateSettings(REALM, OTHELLO, { allow_private_data_export: false });
    }
  });

  it.each([
    [{ export_type: 'everything' }, 'Invalid export_type: Value error, Not in the list of possible values'],
    [{ export_type: 'full_without_consent' }, 'Full exports without member consent are not enabled for this organization.'],
  ])('refuses %j: %s, starting nothing', async (params, message) => {
    const before = await exportsStore.listRealmExports(REALM);
    expectError(await start('iago@zulip.com', params), message);
    expect(await exportsStore.listRealmExports(REALM)).toEqual(before);
  });

  it('refuses a sixth export within a week: "Exceeded rate limit."', async () => {
    holdJobs();
    for (let i = 0; i < 5; i++) expectSuccess(await start('iago@zulip.com'));
    const before = (await exportsStore.listRealmExports(REALM)).length;
    expectError(await start('desdemona@zulip.com'), 'Exceeded rate limit.');
    expect(await exportsStore.listRealmExports(REALM)).toHaveLength(before);
  });

  it('continues a large export across runs, one checkpoint each, into the same archive', async () => {
    process.env.EXPORT_RUN_MESSAGES = '1000';
    const runs: ExportJob[] = [];
    defineJob<ExportJob>('realmExport', async (job) => {
      runs.push(job);
      await doRealmExportRun(job);
    });
    try {
      const before = await storedMessages();
      // Message ids up to 2,500 (the ones never sent are read and skipped like deleted ones).
      await raiseCounter(`message#${REALM}`, 2500);
      const { archive } = await exportNow();
      expect(runs).toHaveLength(3);
      const files = messageFiles(archive);
      expect(files[0]).toBe('messages-000001.json');
      expect(exportedMessages(archive).length).toBeLessThanOrEqual(before.length);
      expect(exportedMessages(archive).length).toBeGreaterThan(0);
    } finally {
      delete process.env.EXPORT_RUN_MESSAGES;
      defineJob('realmExport', doRealmExportRun);
    }
  });
});

describe('GET /export/realm/consents', () => {
  it("lists each active human user's consent and email visibility, in id order", async () => {
    await usersStore.updateSettings(REALM, HAMLET, { allow_private_data_export: true });
    try {
      const { export_consents } = expectSuccess(
        await call(consentsHandler, { method: 'GET', path: '/export/realm/consents', as: 'iago@zulip.com' }),
      );
      const humans = (await usersStore.listOfRealm(REALM)).filter((u) => u.isActive && !u.isBot).map((u) => u.id);
      expect(export_consents.map((c: any) => c.user_id)).toEqual(humans.sort((a, b) => a - b));
      expect(export_consents.find((c: any) => c.user_id === HAMLET)).toEqual({
        user_id: HAMLET,
        consented: true,
        email_address_visibility: 1,
      });
      expect(export_consents.find((c: any) => c.user_id === IAGO).consented).toBe(false);
    } finally {
      await usersStore.updateSettings(REALM, HAMLET, { allow_private_data_export: false });
    }
  });

  it('refuses a member', async () => {
    expectError(
      await call(consentsHandler, { method: 'GET', path: '/export/realm/consents', as: 'hamlet@zulip.com' }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});

describe('DELETE /export/realm/{export_id}', () => {
  it('deletes the archive, marks the export deleted, tells the administrators, and refuses a second delete', async () => {
    const { id, row } = await exportNow();
    const admin = await openQueue('iago@zulip.com', { eventTypes: ['realm_export'] });
    expectSuccess(await del('iago@zulip.com', id));
    expect(await getFile(row.exportPath!)).toBeUndefined();
    const listed = (await list()).find((e: any) => e.id === id);
    expect(listed).toMatchObject({ export_url: null, pending: false, deleted_timestamp: expect.any(Number) });
    expect((await admin.drain()).map((e) => e.type)).toEqual(['realm_export']);
    expectError(await del('iago@zulip.com', id), 'Export already deleted');
  });

  it('refuses an export of no such id, or of another organization: "Invalid data export ID"', async () => {
    const { id } = await exportNow();
    expectError(await del('iago@zulip.com', 0), 'Invalid data export ID');
    expectError(await del('king@lear.org', id), 'Invalid data export ID');
    expect((await exportsStore.getRealmExport(REALM, id))!.status).toBe('succeeded');
  });

  it('refuses an export still in progress, and one that failed', async () => {
    holdJobs();
    const { id } = expectSuccess(await start('iago@zulip.com'));
    expectError(await del('iago@zulip.com', id), 'Export still in progress');
    const row = (await exportsStore.getRealmExport(REALM, id))!;
    await exportsStore.updateRealmExport(row, { status: 'requested' }, { status: 'failed', dateFailed: 1 });
    await settleJobs();
    expectError(await del('iago@zulip.com', id), 'Export failed, nothing to delete');
    expect((await list()).find((e: any) => e.id === id)).toMatchObject({ pending: false, failed_timestamp: 1, export_url: null });
  });

  it('refuses a member', async () => {
    expectError(await del('hamlet@zulip.com', 1), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
  });
});

describe("GET an export's export_url (/user_avatars/exports/{realm_id}/{token}/{filename})", () => {
  const TEMPLATE = '/user_avatars/exports/{realm_id}/{token}/{filename}';
  /** The export_url's path parameters, as API Gateway hands them over. */
  const partsOf = (exportUrl: string) => {
    const [realm_id, token, filename] = new URL(exportUrl).pathname.split('/').slice(3);
    return { realm_id: realm_id!, token: token!, filename: filename! };
  };
  const download = (as: string, parts: Record<string, string>) =>
    call(downloadHandler, { ...atPath('GET', TEMPLATE, parts), as, settleJobs: false });
  /** The raw answer (a redirect has no JSON body). */
  const redirectOf = async (parts: Record<string, string>, opts: { as?: string; cookie?: string }) => {
    const event = await buildEvent({ ...atPath('GET', TEMPLATE, parts), as: opts.as, headers: opts.cookie ? { cookie: opts.cookie } : {} });
    const response = await downloadHandler(event);
    return { status: response.statusCode, location: response.headers?.Location as string | undefined };
  };
  const listedUrl = async (id: number) => (await list()).find((e: any) => e.id === id).export_url as string;

  it('redirects an administrator to a presigned S3 URL of one minute that downloads the archive', async () => {
    const { id, row } = await exportNow();
    const parts = partsOf(await listedUrl(id));
    const { status, location } = await redirectOf(parts, { as: 'iago@zulip.com' });
    expect(status).toBe(302);
    const signed = new URL(location!);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(signed.pathname.endsWith(`/${row.exportPath}`)).toBe(true);
    const response = await fetch(signed);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${parts.filename}"`);
    const archive = await readArchive(Buffer.from(await response.arrayBuffer()));
    expect(`${archive.folder}.tar.gz`).toBe(parts.filename);
    expect(jsonMember(archive, 'realm.json').zerver_realm[0]).toMatchObject({ id: REALM, string_id: 'zulip' });
  });

  it("answers the administrator's browser, followed with the session cookie", async () => {
    const { id } = await exportNow();
    const browser = new PageClient();
    await browser.logIn('iago@zulip.com', devPassword('iago@zulip.com'));
    const { status, location } = await redirectOf(partsOf(await listedUrl(id)), { cookie: `sessionid=${browser.cookies.sessionid}` });
    expect(status).toBe(302);
    expect((await fetch(location!)).status).toBe(200);
  });

  it('refuses a member: "Must be an organization administrator", and a caller not logged in', async () => {
    const { id } = await exportNow();
    const parts = partsOf(await listedUrl(id));
    expectError(await download('hamlet@zulip.com', parts), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await redirectOf(parts, {})).toEqual({ status: 401, location: undefined });
  });

  it('answers "File not found." for another organization\'s administrator, a wrong token or file name, and a deleted export', async () => {
    const { id } = await exportNow();
    const parts = partsOf(await listedUrl(id));
    expectError(await download('king@lear.org', parts), 'File not found.', 404, 'BAD_REQUEST');
    expectError(await download('king@lear.org', { ...parts, realm_id: '3' }), 'File not found.', 404, 'BAD_REQUEST');
    expectError(await download('iago@zulip.com', { ...parts, token: 'x'.repeat(24) }), 'File not found.', 404, 'BAD_REQUEST');
    expectError(await download('iago@zulip.com', { ...parts, filename: 'other.tar.gz' }), 'File not found.', 404, 'BAD_REQUEST');
    expectSuccess(await del('iago@zulip.com', id));
    expectError(await download('iago@zulip.com', parts), 'File not found.', 404, 'BAD_REQUEST');
  });

  it('answers "File not found." while the export is pending', async () => {
    holdJobs();
    const { id } = expectSuccess(await start('iago@zulip.com'));
    const row = (await exportsStore.getRealmExport(REALM, id))!;
    const parts = { realm_id: String(REALM), token: row.token, filename: `zulip-export-${row.token.slice(0, 8).toLowerCase()}.tar.gz` };
    expectError(await download('iago@zulip.com', parts), 'File not found.', 404, 'BAD_REQUEST');
  });
});
