// One run of an import (upstream's manage.py import, zerver/lib/import_realm.py, done in as many
// runs as a Lambda function's time limit needs; the realmImport job and `npm run import-realm` both
// come here). A run claims its checkpoint (lib/store/imports.ts: of two copies of a run, one goes
// on), unpacks the archive (import-archive.ts) and checks every file and id (import-read.ts) before
// it writes anything; the first run allocates every id and saves them next to the archive
// (import-state.ts). Then it writes messages from where the last run stopped until its budget is
// spent (a time and a message count), and hands the checkpoint to the next run. The last run writes
// what depends on every message, then claims the subdomain with the organization's item in one
// transaction: nothing of the organization is reachable before. A refusal, or the last allowed
// failure of a run, removes everything every run wrote (the undo log) and the checkpoint.
import { rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { nowMs, nowSeconds } from '../../clock';
import { REALM_PROPERTIES, type Realm, type RealmPropertyName, type RealmPropertyValue } from '../../models/realm';
import { allocateIds, raiseCounter } from '../../store/common';
import * as importsStore from '../../store/imports';
import * as realmCreationStore from '../../store/realm-creation';
import * as realmsStore from '../../store/realms';
import { ensureSystemBot, SYSTEM_BOTS } from '../people/system-bots';
import { LostRaceError, retryLostRaces } from '../retry';
import { buildSystemGroups, newRealm, SUBDOMAIN_ERRORS, subdomainFormError } from '../way-in/create-realm';
import { ARCHIVE_LIMITS, ImportRefusedError, unpackArchive, type ArchiveLimits } from './import-archive';
import { allocateImportIds, rebuildImportIds } from './import-ids';
import { readImportPlan, type ImportPlan } from './import-read';
import { forgetImport, ImportWriter, loadIds, removeImport, saveIds, type SavedIds } from './import-state';
import { finishMessages, writeAttachments, writeChannels, writeMessages, writeUsers } from './import-write';

/** An import's runs failed as often as allowed: everything they wrote is removed. */
export class ImportFailedError extends Error {}

export type ImportRunJob = importsStore.ImportHome & { run?: number };

export type ImportRunOptions = {
  /** Progress lines (the CLI prints them); awaited, so a caller can act between steps. */
  log?: (line: string) => void | Promise<void>;
  limits?: ArchiveLimits;
  /** When a run stops starting new message batches: after `ms` since it began or `messages` written. */
  budget: { ms: number; messages: number };
  /** Failed attempts at one run before the import is given up (Lambda's attempt and its two retries: 3). */
  maxFailures: number;
};

export type ImportResult = {
  realm: Realm;
  users: number;
  channels: number;
  messages: number;
  reactions: number;
  attachments: number;
  /** DynamoDB write units of the items the last run wrote. */
  writeUnits: number;
};

export type ImportRunOutcome =
  | { done: ImportResult }
  /** The next run to start (also when a run finds its successor not started: a start that was lost). */
  | { next: ImportRunJob; reached: number }
  | { skipped: string };

/** How long a claimed run is its attempt's: the function's time limit (900 s) and a margin. */
const CLAIM_MS = 960_000;

/** The organization's item: the export's name, description, creation date, language and simple settings. */
const importedRealm = (plan: ImportPlan, id: number, subdomain: string, now: number): Realm => {
  const r = plan.realm;
  const realm = newRealm(id, subdomain, typeof r.name === 'string' && r.name.trim() !== '' ? r.name.trim() : subdomain, now);
  const properties: Partial<Record<RealmPropertyName, RealmPropertyValue>> = {};
  for (const [name, fallback] of Object.entries(REALM_PROPERTIES))
    if (typeof r[name] === typeof fallback && r[name] !== fallback) properties[name as RealmPropertyName] = r[name] as RealmPropertyValue;
  return {
    ...realm,
    description: typeof r.description === 'string' ? r.description : '',
    dateCreated: typeof r.date_created === 'number' ? r.date_created : now,
    ...(typeof r.default_language === 'string' ? { defaultLanguage: r.default_language } : {}),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
  };
};

/** The subdomain's first problem, with upstream's texts (check_subdomain_available), or none. */
const checkSubdomain = async (subdomain: string): Promise<void> => {
  const problem = subdomainFormError(subdomain);
  if (problem !== undefined) throw new ImportRefusedError(problem);
  if (await realmsStore.getByStringId(subdomain)) throw new ImportRefusedError(SUBDOMAIN_ERRORS.unavailable);
};

/** The first run's allocations: the organization, its system groups, every id; saved before anything is written. */
const allocateAll = async (home: importsStore.ImportHome, plan: ImportPlan): Promise<SavedIds> => {
  const now = nowSeconds();
  await Promise.all(SYSTEM_BOTS.map(ensureSystemBot));
  await raiseCounter('realm', realmsStore.FIRST_CREATED_REALM_ID - 1);
  const realmId = await allocateIds('realm');
  const groups = await buildSystemGroups(realmId, now);
  const ids = await allocateImportIds(plan, realmId);
  const firstAttachmentId = plan.attachments.length > 0 ? await allocateIds('attachment', plan.attachments.length) : 0;
  return saveIds(home, ids, { realmId, now, groups, firstAttachmentId });
};

/** The claimed run's work, from the unpacked export to the checkpoint handed on or the subdomain claimed. */
const writeRun = async (
  job: ImportRunJob & { run: number },
  owner: string,
  claimed: importsStore.ImportCheckpoint,
  plan: ImportPlan,
  opts: ImportRunOptions,
  started: number,
): Promise<ImportRunOutcome> => {
  const home = { bucket: job.bucket, key: job.key, subdomain: job.subdomain };
  const log = opts.log ?? (() => undefined);
  let saved: SavedIds;
  if (claimed.realmId === undefined) {
    saved = await allocateAll(home, plan);
    if (!(await importsStore.recordRealmId(home, owner, saved.realmId))) return { skipped: `run ${job.run} lost its claim` };
  } else saved = await loadIds(home);
  const ids = rebuildImportIds(plan, saved);
  const realm = importedRealm(plan, saved.realmId, job.subdomain, saved.now);
  const w = new ImportWriter(home, claimed.next);
  if (claimed.next === 0) await writeUsers(w, plan, realm, structuredClone(saved.groups), ids);
  const total = plan.messageIds.length;
  const span = {
    from: claimed.next,
    to: Math.min(total, claimed.next + opts.budget.messages),
    stop: () => nowMs() - started >= opts.budget.ms,
  };
  const reached = await writeMessages(w, plan, realm, ids, span, (line) => void log(line));
  if (reached < total) {
    if (!(await importsStore.advanceRun(home, owner, job.run, reached))) return { skipped: `run ${job.run} lost its claim` };
    return { next: { ...home, run: job.run + 1 }, reached };
  }
  const { activity, claims } = await finishMessages(w, plan, realm, ids);
  await writeChannels(w, plan, realm, saved.groups, ids, activity);
  await writeAttachments(w, plan, realm, ids, claims, saved.firstAttachmentId);
  await raiseCounter(`message#${realm.id}`, total);
  await log('claiming the subdomain');
  const outcome = await retryLostRaces(async () => {
    const result = await realmCreationStore.claimSubdomain(realm);
    if (result === 'conflict') throw new LostRaceError();
    return result;
  });
  // A replayed last run finds the subdomain claimed by its own organization.
  if (outcome === 'subdomain_taken' && (await realmsStore.getByStringId(job.subdomain))?.id !== realm.id)
    throw new ImportRefusedError(SUBDOMAIN_ERRORS.unavailable);
  await forgetImport(home);
  return {
    done: {
      realm,
      users: plan.users.length,
      channels: plan.channels.length,
      messages: total,
      reactions: [...plan.reactionsByMessage.values()].reduce((n, list) => n + list.length, 0),
      attachments: plan.attachments.length,
      writeUnits: w.writeUnits,
    },
  };
};

/**
 * Run `job.run` (1 when absent) of the import of the archive `open()` returns at `job.subdomain`.
 * Refuses (ImportRefusedError) what doImportRealm refuses, and then removes what earlier runs
 * wrote; a run that fails is thrown again to be tried again, and its `maxFailures`th failure
 * removes everything (ImportFailedError). Returns the next run to start, the finished import, or
 * why this run did nothing (another attempt holds it, or it is done). Emits nothing.
 */
export const doImportRun = async (job: ImportRunJob, open: () => Promise<Readable>, opts: ImportRunOptions): Promise<ImportRunOutcome> => {
  const started = nowMs();
  const home = { bucket: job.bucket, key: job.key, subdomain: job.subdomain };
  const run = job.run ?? 1;
  if (run === 1) await importsStore.createCheckpoint(home);
  const owner = randomUUID();
  const claimed = await importsStore.claimRun(home, run, owner, started, started + CLAIM_MS);
  if (!claimed) {
    const now = await importsStore.getCheckpoint(home);
    // The run went on, but the next one holds nothing: its start was lost (this is a retry of it).
    if (now?.run === run + 1 && now.owner === undefined) return { next: { ...home, run: run + 1 }, reached: now.next };
    return { skipped: `run ${run} is not the import's next run, or another attempt holds it` };
  }
  const giveUp = async (error: unknown): Promise<never> => {
    await removeImport(home);
    throw new ImportFailedError(`Gave up after ${opts.maxFailures} failed attempts: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  };
  if (claimed.failures >= opts.maxFailures) return giveUp(new Error('its attempts ran out of time'));
  try {
    if (claimed.realmId !== undefined && (await realmsStore.getByStringId(job.subdomain))?.id === claimed.realmId) {
      await forgetImport(home);
      return { skipped: 'the import is done' };
    }
    await checkSubdomain(job.subdomain);
    const { root, folder } = await unpackArchive(await open(), opts.limits ?? ARCHIVE_LIMITS);
    try {
      await opts.log?.('unpacked');
      const plan = await readImportPlan(folder);
      await opts.log?.(`checked: ${plan.users.length} users, ${plan.channels.length} channels, ${plan.messageIds.length} messages`);
      return await writeRun({ ...job, run }, owner, claimed, plan, opts, started);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  } catch (error) {
    if (error instanceof ImportRefusedError) {
      await removeImport(home);
      throw error;
    }
    if ((await importsStore.releaseFailedRun(home, owner)) >= opts.maxFailures) return giveUp(error);
    throw error;
  }
};
