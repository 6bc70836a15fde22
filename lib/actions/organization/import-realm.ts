// Importing an organization from an export archive (upstream's manage.py import, zerver/lib/
// import_realm.py): `npm run import-realm` and the realmImport job call doImportRealm. The order
// keeps a refusal or a failure from leaving a half-made organization: the subdomain is checked,
// the archive unpacked (import-archive.ts) and every file and id checked (import-read.ts) before
// anything is written; then everything is written under a new organization id that nothing
// reaches (import-write.ts), and the last write claims the subdomain with the organization's item
// in one transaction. A failure before the claim removes every item and file written.
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { nowSeconds } from '../../clock';
import { REALM_PROPERTIES, type Realm, type RealmPropertyName, type RealmPropertyValue } from '../../models/realm';
import { allocateIds, raiseCounter } from '../../store/common';
import * as realmCreationStore from '../../store/realm-creation';
import * as realmsStore from '../../store/realms';
import { ensureSystemBot, SYSTEM_BOTS } from '../people/system-bots';
import { LostRaceError, retryLostRaces } from '../retry';
import { buildSystemGroups, newRealm, SUBDOMAIN_ERRORS, subdomainFormError } from '../way-in/create-realm';
import { ARCHIVE_LIMITS, ImportRefusedError, unpackArchive, type ArchiveLimits } from './import-archive';
import { allocateImportIds } from './import-ids';
import { readImportPlan, type ImportPlan } from './import-read';
import { ImportWriter, writeAttachments, writeChannels, writeMessages, writeUsers } from './import-write';

export { ImportRefusedError } from './import-archive';

export type ImportOptions = {
  /** Progress lines (the CLI prints them); awaited, so a caller can act between steps. */
  log?: (line: string) => void | Promise<void>;
  limits?: ArchiveLimits;
};

export type ImportResult = {
  realm: Realm;
  users: number;
  channels: number;
  messages: number;
  reactions: number;
  attachments: number;
  /** DynamoDB write units of the items written. */
  writeUnits: number;
};

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

/**
 * Creates an organization at `subdomain` from the export archive `source` (a .tar.gz stream).
 * Refuses (ImportRefusedError, nothing written) a subdomain that is invalid, reserved or taken, and
 * an archive that is hostile, malformed, of another format, or whose ids name nothing. Writes the
 * organization with its system groups, users (no password: they set one through password reset),
 * channels, subscriptions, messages (same order, dates, senders, topics, edit history, read state),
 * reactions and uploads; the subdomain is claimed last, and a failure before removes what was
 * written. Emits nothing: nobody can be connected to an organization that did not exist.
 */
export const doImportRealm = async (source: Readable, subdomain: string, opts: ImportOptions = {}): Promise<ImportResult> => {
  const log = opts.log ?? (() => undefined);
  await checkSubdomain(subdomain);
  const { root, folder } = await unpackArchive(source, opts.limits ?? ARCHIVE_LIMITS);
  try {
    await log('unpacked');
    const plan = await readImportPlan(folder);
    await log(`checked: ${plan.users.length} users, ${plan.channels.length} channels, ${plan.messageIds.length} messages`);
    const now = nowSeconds();
    await Promise.all(SYSTEM_BOTS.map(ensureSystemBot));
    await raiseCounter('realm', realmsStore.FIRST_CREATED_REALM_ID - 1);
    const realm = importedRealm(plan, await allocateIds('realm'), subdomain, now);
    const w = new ImportWriter();
    try {
      const groups = await buildSystemGroups(realm.id, now);
      const ids = await allocateImportIds(plan, realm.id);
      const users = await writeUsers(w, plan, realm, groups, ids);
      const { activity, claims } = await writeMessages(w, plan, realm, ids, (line) => void log(line));
      await writeChannels(w, plan, realm, groups, users, ids, activity);
      const firstAttachmentId = plan.attachments.length > 0 ? await allocateIds('attachment', plan.attachments.length) : 0;
      await writeAttachments(w, plan, realm, ids, claims, firstAttachmentId);
      await raiseCounter(`message#${realm.id}`, plan.messageIds.length);
      await log('claiming the subdomain');
      const outcome = await retryLostRaces(async () => {
        const result = await realmCreationStore.claimSubdomain(realm);
        if (result === 'conflict') throw new LostRaceError();
        return result;
      });
      if (outcome === 'subdomain_taken') throw new ImportRefusedError(SUBDOMAIN_ERRORS.unavailable);
    } catch (error) {
      await w.undo();
      throw error;
    }
    return {
      realm,
      users: plan.users.length,
      channels: plan.channels.length,
      messages: plan.messageIds.length,
      reactions: [...plan.reactionsByMessage.values()].reduce((n, list) => n + list.length, 0),
      attachments: plan.attachments.length,
      writeUnits: w.writeUnits,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};
