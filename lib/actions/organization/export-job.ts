// The realmExport job: writes an organization's data export in upstream's format
// (zerver/lib/export.py) across as many runs as its size needs. Each run reads the next
// EXPORT_RUN_MESSAGES message ids (at most half its time limit), 1,000 to a file as upstream's
// MESSAGE_BATCH_CHUNK_SIZE, keeps each file as an S3 object under the export's staging prefix,
// records how far it got (the export item's `progress`, conditioned on the run it claimed) and
// starts the next run; the run that finds nothing left writes the archive (export-archive.ts).
//
// Reads are bounded: message items by id (BatchGetItem of 100, ids 1 to the organization's message
// counter when the export started), each user's rows of a file's id range (one Query of the user's
// partition), the organization's users and channels (one Query each). No Scan.
//
// Which messages: a public export takes the messages of public channels (upstream's public_only);
// a full export with consent also the private ones a consenting member received. A user who did not
// consent keeps rows only of exported messages, with no flag but `read`, so no private state of
// theirs (unread, starred, mentions) leaves the organization.
import { nowMs } from '../../clock';
import { mapLimited } from '../../concurrency';
import { config } from '../../config';
import { flagsMask, messageRecord, reactionRecords, type ExportRecord } from '../../models/export-format';
import type { Message } from '../../models/message';
import type { RealmExport } from '../../models/realm-export';
import { settingsOfUser } from '../../models/user-settings';
import { getMessagesByIds } from '../../store/messages';
import { listChannelsOfRealm } from '../../store/channels';
import { deleteFile, getFile, putFile } from '../../store/files';
import { startJob } from '../../store/jobs';
import * as exportsStore from '../../store/realm-exports';
import * as usersStore from '../../store/users';
import { notifyRealmExport } from './exports';
import { stagedMessageFile, writeExportArchive, type ExportScope } from './export-archive';
import { log } from '../../log';

export type ExportJob = { realmId: number; exportId: number };

/** Messages to a file (upstream's MESSAGE_BATCH_CHUNK_SIZE). */
const EXPORT_FILE_MESSAGES = 1000;
/** Part of the function's time limit (300 s) a run spends reading before it checkpoints. */
const RUN_BUDGET_MS = 150_000;
/** Users whose rows are read at once. */
const ROW_READ_CONCURRENCY = 16;

/** The S3 key of one of an export's staged files. */
const stagedKey = (e: Pick<RealmExport, 'realmId' | 'token'>, name: string): string => `exports/${e.realmId}/${e.token}/staging/${name}`;

const readScope = async (e: RealmExport): Promise<ExportScope> => {
  const users = (await usersStore.listOfRealm(e.realmId)).sort((a, b) => a.id - b.id);
  const channels = (await listChannelsOfRealm(e.realmId)).sort((a, b) => a.id - b.id);
  const consenting = new Set(
    e.exportType === 'public' ? [] : users.filter((u) => !u.isBot && settingsOfUser(u).allow_private_data_export).map((u) => u.id),
  );
  return { users, consenting, channels, publicChannels: new Set(channels.filter((c) => !c.inviteOnly).map((c) => c.id)) };
};

/**
 * One message file: the messages with ids `fromId`..`toId` the export takes, their rows and their
 * reactions (reaction ids from `firstReactionId`). Returns the file's JSON and its counts.
 */
const buildMessageFile = async (
  e: RealmExport,
  scope: ExportScope,
  fromId: number,
  toId: number,
  firstReactionId: number,
): Promise<{ body: Buffer; messages: number; reactions: number }> => {
  const ids = Array.from({ length: toId - fromId + 1 }, (_, i) => fromId + i);
  const messages: Message[] = [];
  for (let i = 0; i < ids.length; i += 100) messages.push(...(await getMessagesByIds(e.realmId, ids.slice(i, i + 100))));
  const rowsByUser = await mapLimited(scope.users, ROW_READ_CONCURRENCY, (u) => exportsStore.listRowsOfUserInRange(u.id, fromId, toId));
  const rows = rowsByUser.flat();
  const heldByConsenting = new Set(rows.filter((r) => scope.consenting.has(r.userId)).map((r) => r.messageId));
  const exported = messages
    .filter((m) => (m.streamId !== null && scope.publicChannels.has(m.streamId)) || heldByConsenting.has(m.id))
    .sort((a, b) => a.id - b.id);
  const exportedIds = new Set(exported.map((m) => m.id));
  const usermessages: ExportRecord[] = rows
    .filter((r) => exportedIds.has(r.messageId))
    .sort((a, b) => a.messageId - b.messageId || a.userId - b.userId)
    .map((r) => ({
      id: r.messageId * 1_000_000 + r.userId,
      user_profile: r.userId,
      message: r.messageId,
      flags_mask: flagsMask(scope.consenting.has(r.userId) ? r.flags : r.flags.filter((f) => f === 'read')),
    }));
  let reactionId = firstReactionId;
  const reactions: ExportRecord[] = [];
  for (const m of exported) {
    const records = reactionRecords(m.id, m.reactions, reactionId);
    reactionId += records.length;
    reactions.push(...records);
  }
  const file = { zerver_message: exported.map(messageRecord), zerver_usermessage: usermessages, zerver_reaction: reactions };
  return { body: Buffer.from(JSON.stringify(file)), messages: exported.length, reactions: reactions.length };
};

/** Runs in a row that may fail at one checkpoint before the export is marked failed (Lambda's first attempt and its two retries). */
const MAX_FAILURES = 3;

/**
 * A run failed: the third failure in a row at one checkpoint marks the export failed (upstream's
 * "failed" status: it cannot be deleted, only requested again) and tells the administrators;
 * before that the error is thrown again, so that Lambda runs it again from the checkpoint.
 */
const failRun = async (e: RealmExport, runs: number, error: unknown): Promise<void> => {
  const failures = (e.failures ?? 0) + 1;
  log.error('realmExport run failed', { realmId: e.realmId, exportId: e.id, failures, error: String((error as Error).stack ?? error) });
  if (failures < MAX_FAILURES) {
    await exportsStore.updateRealmExport(e, { status: 'started', runs }, { failures });
    throw error;
  }
  if (await exportsStore.updateRealmExport(e, { status: 'started', runs }, { status: 'failed', failures, dateFailed: nowMs() / 1000 }))
    await notifyRealmExport(e.realmId);
};

/**
 * One run of an export: claims it (the export's `runs`, conditionally: of two copies of a run one
 * goes on), reads the next files' worth of messages, then either records its progress and starts
 * the next run, or writes the archive and marks the export succeeded (`realm_export` to the
 * administrators). An export already finished, failed or deleted is left alone. A run that throws
 * is tried again from the checkpoint; the third failure in a row marks the export failed.
 */
export const doRealmExportRun = async (job: ExportJob): Promise<void> => {
  const started = nowMs();
  const e = await exportsStore.getRealmExport(job.realmId, job.exportId);
  if (!e || (e.status !== 'requested' && e.status !== 'started')) return;
  const runs = (e.runs ?? 0) + 1;
  const progress = e.progress ?? {
    nextMessageId: 1,
    lastMessageId: await exportsStore.readCounter(`message#${e.realmId}`),
    files: 0,
    messages: 0,
    reactions: 0,
  };
  const claim = { status: 'started' as const, runs, progress, ...(e.status === 'requested' ? { dateStarted: nowMs() / 1000 } : {}) };
  if (!(await exportsStore.updateRealmExport(e, { status: e.status, runs: e.runs ?? 0 }, claim))) return;
  const mine: RealmExport = { ...e, ...claim };
  try {
    const scope = await readScope(mine);
    const runEnd = progress.nextMessageId + config.exportRunMessages() - 1;
    while (progress.nextMessageId <= progress.lastMessageId && progress.nextMessageId <= runEnd && nowMs() - started < RUN_BUDGET_MS) {
      const toId = Math.min(progress.nextMessageId + EXPORT_FILE_MESSAGES - 1, progress.lastMessageId);
      const file = await buildMessageFile(mine, scope, progress.nextMessageId, toId, progress.reactions + 1);
      progress.files += 1;
      await putFile(stagedKey(mine, stagedMessageFile(progress.files)), file.body, 'application/json');
      progress.messages += file.messages;
      progress.reactions += file.reactions;
      progress.nextMessageId = toId + 1;
    }
    if (progress.nextMessageId <= progress.lastMessageId) {
      if (await exportsStore.updateRealmExport(mine, { status: 'started', runs }, { progress, failures: 0 }))
        await startJob('realmExport', job);
      return;
    }
    const readStaged = async (name: string): Promise<Buffer> => {
      const body = await getFile(stagedKey(mine, name));
      if (!body) throw new Error(`export ${e.id}: its staged ${name} is missing`);
      return body;
    };
    const exportPath = await writeExportArchive(mine, scope, progress, readStaged);
    if (
      !(await exportsStore.updateRealmExport(
        mine,
        { status: 'started', runs },
        { status: 'succeeded', exportPath, dateSucceeded: nowMs() / 1000 },
      ))
    )
      return;
    await notifyRealmExport(e.realmId);
    for (let n = 1; n <= progress.files; n++) await deleteFile(stagedKey(mine, stagedMessageFile(n)));
  } catch (error) {
    await failRun(mine, runs, error);
  }
};
