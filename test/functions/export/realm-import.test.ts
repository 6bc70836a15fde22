// `npm run import-realm`'s action (lib/actions/organization/import-realm.ts): an export of ours
// imports into ours. The development organization is exported in full (every member consenting,
// so every row keeps its flags) after an edit, reactions, a star, a direct message to a group and
// an upload; the archive is imported under another subdomain and every message, row, reaction,
// subscription and upload is compared with the original, matching users by email and channels by
// name. It is imported twice: in one run (as `npm run import-realm` does), and by the realmImport
// job forced into several runs of a few messages each (IMPORT_RUN_MESSAGES), which must give the
// same organization. Refusals of hostile archives are in realm-import-refusals.test.ts; retried,
// repeated and failing runs in realm-import-runs.test.ts.
import { Readable } from 'node:stream';
import { handler as createExportHandler } from '../../../functions/export/create';
import { handler as addReactionHandler } from '../../../functions/reactions/add';
import { handler as flagsHandler } from '../../../functions/messages/update-flags';
import { handler as uploadHandler } from '../../../functions/uploads/upload';
import { doImportRealm, ImportRefusedError, type ImportResult } from '../../../lib/actions/organization/import-realm';
import { checkPassword } from '../../../lib/actions/way-in/password-login';
import { checkResetPassword, doRequestPasswordReset, readPasswordResetLink } from '../../../lib/actions/way-in/password-reset';
import { listChannelsOfRealm, listSubscriptionsOfUser } from '../../../lib/store/channels';
import { getAttachmentWithClaims, listUploadsOfUser } from '../../../lib/store/attachments';
import { listLocalSentEmails } from '../../../lib/store/emails';
import { getFile, putFile } from '../../../lib/store/files';
import { getMessagesByIds, getUserMessagesByIds } from '../../../lib/store/messages';
import * as passwordsStore from '../../../lib/store/passwords';
import * as exportsStore from '../../../lib/store/realm-exports';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { settleJobs, startJob } from '../../../lib/store/jobs';
import { raiseCounter } from '../../../lib/store/common';
import { config } from '../../../lib/config';
import type { Message } from '../../../lib/models/message';
import { INTERNAL_REALM_ID, type User } from '../../../lib/models/user';
import { call, expectSuccess } from '../../helpers/api';
import { editMessage, sendMessageId } from '../../helpers/messages';
import { multipart } from '../../helpers/multipart';

const REALM = 2;
let SUBDOMAIN = 'imported';
const [HAMLET, IAGO, OTHELLO] = [10, 11, 12];

let result: ImportResult;
let originalUsers: User[];
let importedUsers: User[];
/** Original user id → imported user id (by email). */
const userMap = new Map<number, number>();
/** Original channel id → imported channel id (by name). */
const channelMap = new Map<number, number>();
/** The exported messages, oldest first, and the imported ones in the same order. */
let originals: Message[];
let imported: Message[];
let uploadPath: string;
let archive: Buffer;
/** The realmImport job's runs (the lines that hand the checkpoint on) in the last import. */
let handedOn = 0;

const allIds = async (realmId: number): Promise<number[]> => {
  const last = await exportsStore.readCounter(`message#${realmId}`);
  return Array.from({ length: last }, (_, i) => i + 1);
};

/** Every id in rendered HTML or an edit, through the maps: what the import must have written. */
const mapRendered = (html: string | undefined): string | undefined =>
  html
    ?.replace(/data-user-id="(\d+)/g, (_, id: string) => `data-user-id="${userMap.get(Number(id)) ?? id}`)
    .replace(/data-stream-id="(\d+)/g, (_, id: string) => `data-stream-id="${channelMap.get(Number(id)) ?? id}`)
    .replace(/#narrow\/(channel|stream)\/(\d+)/g, (_, kind: string, id: string) => `#narrow/${kind}/${channelMap.get(Number(id)) ?? id}`);

beforeAll(async () => {
  originalUsers = await usersStore.listOfRealm(REALM);
  for (const u of originalUsers.filter((x) => !x.isBot)) await usersStore.updateSettings(REALM, u.id, { allow_private_data_export: true });
  const upload = expectSuccess(
    await call(uploadHandler, {
      method: 'POST',
      path: '/user_uploads',
      as: 'hamlet@zulip.com',
      rawBody: multipart([{ filename: 'plan.txt', content: Buffer.from('moving in with our history') }]),
    }),
  );
  uploadPath = String(upload.url).replace(/^\/user_uploads\//, '');
  const linking = await sendMessageId('hamlet@zulip.com', {
    type: 'stream',
    to: 'Verona',
    topic: 'moving',
    content: `[plan](${upload.url}) @**Iago**`,
  });
  expectSuccess(await editMessage('hamlet@zulip.com', linking, { content: `[the plan](${upload.url}) @**Iago**`, topic: 'moving day' }));
  for (const as of ['iago@zulip.com', 'othello@zulip.com'])
    expectSuccess(
      await call(addReactionHandler, {
        method: 'POST',
        path: `/messages/${linking}/reactions`,
        pathParameters: { message_id: String(linking) },
        as,
        params: { emoji_name: 'octopus' },
      }),
    );
  expectSuccess(
    await call(flagsHandler, {
      method: 'POST',
      path: '/messages/flags',
      as: 'iago@zulip.com',
      params: { messages: JSON.stringify([linking]), op: 'add', flag: 'starred' },
    }),
  );
  await sendMessageId('hamlet@zulip.com', { type: 'private', to: [IAGO, OTHELLO], content: 'a group of three' });
  await sendMessageId('hamlet@zulip.com', { type: 'private', to: [OTHELLO], content: 'just us' });

  const { id } = expectSuccess(
    await call(createExportHandler, {
      method: 'POST',
      path: '/export/realm',
      as: 'iago@zulip.com',
      params: { export_type: 'full_with_consent' },
    }),
  );
  await settleJobs();
  const row = (await exportsStore.getRealmExport(REALM, id))!;
  expect(row.status).toBe('succeeded');
  archive = (await getFile(row.exportPath!))!;
  originals = (await getMessagesByIds(REALM, await allIds(REALM))).sort((a, b) => a.id - b.id);
}, 120_000);

/** In one run, as `npm run import-realm` does. */
const importInOneRun = async (): Promise<ImportResult> => doImportRealm(Readable.from(archive), SUBDOMAIN);

/** By the realmImport job from S3, at most 7 messages a run: several runs, each from the last one's checkpoint. */
const importInRuns = async (): Promise<ImportResult> => {
  // Tables are this file's, the uploads bucket is shared: organization ids apart from other import
  // tests' keep their uploads (under `<realm id>/`) apart.
  await raiseCounter('realm', 1999);
  await putFile('imports/round-trip.tar.gz', archive, 'application/gzip');
  const lines: Record<string, unknown>[] = [];
  const spy = jest.spyOn(console, 'info').mockImplementation((line: string) => void lines.push(JSON.parse(line)));
  process.env.IMPORT_RUN_MESSAGES = '7';
  try {
    await startJob('realmImport', { bucket: config.uploadsBucket(), key: 'imports/round-trip.tar.gz', subdomain: SUBDOMAIN });
    await settleJobs();
  } finally {
    delete process.env.IMPORT_RUN_MESSAGES;
    spy.mockRestore();
  }
  const done = lines.find((l) => l.message === 'realmImport' && l.imported !== undefined)!;
  handedOn = lines.filter((l) => l.message === 'realmImport' && l.checkpoint !== undefined).length;
  const realm = (await realmsStore.getByStringId(SUBDOMAIN))!;
  expect(done.imported).toBe(realm.id);
  return { realm, ...(done as Omit<ImportResult, 'realm'>), writeUnits: 0 };
};

describe.each([
  ['in one run', 'imported', importInOneRun],
  ['by the realmImport job in several runs', 'imported-in-runs', importInRuns],
])('importing an export of ours %s', (how, subdomain, importArchive) => {
  beforeAll(async () => {
    SUBDOMAIN = subdomain;
    userMap.clear();
    channelMap.clear();
    result = await importArchive();
    importedUsers = await usersStore.listOfRealm(result.realm.id);
    originalUsers = await usersStore.listOfRealm(REALM);
    for (const u of originalUsers) userMap.set(u.id, importedUsers.find((i) => i.email === u.email)!.id);
    // System bots post in every organization: they keep their ids.
    for (const bot of await usersStore.listOfRealm(INTERNAL_REALM_ID)) userMap.set(bot.id, bot.id);
    const importedChannels = await listChannelsOfRealm(result.realm.id);
    for (const c of await listChannelsOfRealm(REALM)) channelMap.set(c.id, importedChannels.find((i) => i.name === c.name)!.id);
    imported = (await getMessagesByIds(result.realm.id, await allIds(result.realm.id))).sort((a, b) => a.id - b.id);
  }, 120_000);

  it('creates the organization at the new subdomain, with the name and creation date it had', async () => {
    // The job's runs: the development organization's messages take several.
    if (how !== 'in one run') expect(handedOn).toBeGreaterThanOrEqual(2);
    const original = (await realmsStore.get(REALM))!;
    const found = (await realmsStore.getByStringId(SUBDOMAIN))!;
    expect(found.id).toBe(result.realm.id);
    expect([found.name, found.dateCreated, found.deactivated]).toEqual([original.name, original.dateCreated, false]);
    expect(result).toMatchObject({ users: originalUsers.length, messages: originals.length });
  });

  it('creates every user with the same email, name, role, state and settings, a new id and API key, and no password', async () => {
    expect(importedUsers).toHaveLength(originalUsers.length);
    for (const u of originalUsers) {
      const i = importedUsers.find((x) => x.id === userMap.get(u.id))!;
      expect([i.email, i.fullName, i.role, i.isActive, i.isBot, i.timezone, i.dateJoined]).toEqual([
        u.email,
        u.fullName,
        u.role,
        u.isActive,
        u.isBot,
        u.timezone,
        u.dateJoined,
      ]);
      expect(i.settings ?? {}).toEqual(u.settings ?? {});
      expect(i.id).not.toBe(u.id);
      expect(i.apiKey).not.toBe(u.apiKey);
      expect(await passwordsStore.getPasswordHash(i.id)).toBeUndefined();
    }
  });

  it('keeps every message in order: content, rendered content, sender, channel, topic, date, client and edit history', () => {
    expect(imported.map((m) => m.id)).toEqual(originals.map((_, i) => i + 1));
    originals.forEach((o, n) => {
      const i = imported[n]!;
      expect(i.content).toBe(o.content.split(uploadPath).join(importedPathOf(i)));
      expect(i.renderedContent).toBe(mapRendered(o.renderedContent)?.split(uploadPath).join(importedPathOf(i)));
      expect(i.senderId).toEqual(expect.any(Number));
      expect([i.senderId, i.streamId, i.topic, i.dateSent, i.sendingClient]).toEqual([
        userMap.get(o.senderId),
        o.streamId === null ? null : channelMap.get(o.streamId),
        o.topic,
        o.dateSent,
        o.sendingClient,
      ]);
      expect(i.dmUserIds).toEqual(o.dmUserIds.map((id) => userMap.get(id)).sort((a, b) => a! - b!));
      expect(i.editHistory?.map((e) => ({ ...e, user_id: e.user_id, prev_rendered_content: undefined, prev_content: undefined }))).toEqual(
        o.editHistory?.map((e) => ({
          ...e,
          user_id: e.user_id === null ? null : userMap.get(e.user_id),
          prev_rendered_content: undefined,
          prev_content: undefined,
        })),
      );
    });
    expect(imported.some((m) => m.editHistory?.some((e) => e.prev_topic === 'moving'))).toBe(true);
  });

  it("keeps every user's rows of every message with their flags: read state, stars and mentions", async () => {
    let compared = 0;
    for (const u of originalUsers) {
      const before = await getUserMessagesByIds(
        u.id,
        originals.map((m) => m.id),
      );
      const after = await getUserMessagesByIds(
        userMap.get(u.id)!,
        imported.map((m) => m.id),
      );
      const position = new Map(originals.map((m, i) => [m.id, i + 1]));
      expect(after.map((r) => [r.messageId, [...r.flags].sort()])).toEqual(
        before.map((r) => [position.get(r.messageId), [...r.flags].sort()]).sort((a, b) => (a[0] as number) - (b[0] as number)),
      );
      compared += after.length;
    }
    expect(compared).toBeGreaterThan(originals.length);
    const starred = imported.find((m) => m.topic === 'moving day')!;
    expect((await getUserMessagesByIds(userMap.get(IAGO)!, [starred.id]))[0]!.flags).toEqual(
      expect.arrayContaining(['starred', 'mentioned']),
    );
  });

  it('keeps every reaction with its user, emoji and time', () => {
    originals.forEach((o, n) => {
      const expected = Object.values(o.reactions ?? {}).map((r) => ({ ...r, userId: userMap.get(r.userId) }));
      expect(Object.values(imported[n]!.reactions ?? {})).toEqual(expect.arrayContaining(expected));
      expect(Object.keys(imported[n]!.reactions ?? {})).toHaveLength(expected.length);
    });
    expect(imported.find((m) => m.topic === 'moving day')!.reactions).toBeDefined();
  });

  it('keeps every subscription with its settings, and each channel its subscriber count and first message', async () => {
    for (const u of originalUsers) {
      const strip = (s: Awaited<ReturnType<typeof listSubscriptionsOfUser>>[number]) => ({
        ...s,
        userId: 0,
        channelId: 0,
        realmId: 0,
        followsTopics: undefined,
      });
      const before = (await listSubscriptionsOfUser(u.id)).map((s) => ({ ...strip(s), channel: channelMap.get(s.channelId) }));
      const after = (await listSubscriptionsOfUser(userMap.get(u.id)!)).map((s) => ({ ...strip(s), channel: s.channelId }));
      expect(after.sort((a, b) => a.channel! - b.channel!)).toEqual(before.sort((a, b) => a.channel! - b.channel!));
    }
    const originalChannels = await listChannelsOfRealm(REALM);
    const importedChannels = await listChannelsOfRealm(result.realm.id);
    for (const c of originalChannels) {
      const i = importedChannels.find((x) => x.id === channelMap.get(c.id))!;
      expect([i.subscriberCount, i.inviteOnly, i.historyPublicToSubscribers, i.description]).toEqual([
        c.subscriberCount,
        c.inviteOnly,
        c.historyPublicToSubscribers,
        c.description,
      ]);
      const first = originals.findIndex((m) => m.streamId === c.id);
      expect(i.firstMessageId).toBe(first < 0 ? null : first + 1);
    }
  });

  it("keeps every upload's bytes under the new organization, linked from its message", async () => {
    const [upload] = await listUploadsOfUser(userMap.get(HAMLET)!);
    expect(upload).toBeDefined();
    expect(upload!.pathId.startsWith(`${result.realm.id}/`)).toBe(true);
    expect((await getFile(upload!.pathId))?.toString()).toBe('moving in with our history');
    const found = (await getAttachmentWithClaims(upload!.pathId))!;
    const linking = imported.find((m) => m.topic === 'moving day')!;
    expect(found.claims).toEqual([{ pathId: upload!.pathId, messageId: linking.id, kind: 'channel', channelId: linking.streamId }]);
    expect(linking.content).toContain(`/user_uploads/${upload!.pathId}`);
    expect(found.attachment).toMatchObject({ name: 'plan.txt', ownerId: userMap.get(HAMLET), realmId: result.realm.id });
  });

  it('lets an imported user set a password through password reset, then log in with it', async () => {
    const realm = (await realmsStore.get(result.realm.id))!;
    const user = importedUsers.find((u) => u.id === userMap.get(OTHELLO))!;
    expect(await checkPassword(realm, user.email, user, 'anything at all')).toBe(false);
    await doRequestPasswordReset(realm, user.email);
    const emails = ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(user.email) && e.text.includes(`${SUBDOMAIN}.`));
    const key = /\/accounts\/password\/reset\/([a-z0-9]{24})\//.exec(emails[0]!.text)![1]!;
    const access = await readPasswordResetLink(realm, key);
    expect(await checkResetPassword(realm, access, { newPassword1: 'moved in at last', newPassword2: 'moved in at last' })).toEqual({
      user: expect.objectContaining({ id: user.id }),
    });
    expect(await checkPassword(realm, user.email, user, 'moved in at last')).toBe(true);
  });

  it('refuses a second import at the same subdomain: "Subdomain already in use. Please choose a different one."', async () => {
    await expect(doImportRealm(Readable.from(Buffer.alloc(0)), SUBDOMAIN)).rejects.toThrow(
      new ImportRefusedError('Subdomain already in use. Please choose a different one.'),
    );
  });
});

/** The imported path id in a message's content (the upload's new place), or the old one where it links none. */
const importedPathOf = (m: Message): string => /\/user_uploads\/(\d+\/[^)"\s]+)/.exec(m.content)?.[1] ?? uploadPath;
