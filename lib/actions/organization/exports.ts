// Data exports of an organization, for its administrators (zerver/views/realm_export.py,
// zerver/actions/realm_export.py): start one (the realmExport job writes the archive), list them,
// delete one's archive, and see which members consented to their private data being exported.
// Every change sends the whole list to the organization's human administrators (`realm_export`).
import { randomBytes } from 'node:crypto';
import { nowMs } from '../../clock';
import { config } from '../../config';
import { fileNotFound } from '../../access/uploads';
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { realmUrl, type Realm } from '../../models/realm';
import {
  EXPORT_DOWNLOAD_URL_SECONDS,
  EXPORT_LIMIT_PER_WEEK,
  exportArchiveName,
  MAX_EXPORTABLE_MESSAGES,
  MAX_EXPORTABLE_UPLOAD_BYTES,
  toApiRealmExport,
  type ApiRealmExport,
  type ExportType,
  type RealmExport,
} from '../../models/realm-export';
import { isAdmin, type User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { getUploadSpaceUsed } from '../../store/attachments';
import { allocateIds } from '../../store/common';
import { deleteFile, signedDownloadUrl } from '../../store/files';
import { startJob } from '../../store/jobs';
import * as exportsStore from '../../store/realm-exports';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { forAdministrators } from '../requiring';

const WEEK_SECONDS = 7 * 24 * 3600;

/** The organization's exports as the API lists them, in id order. */
const apiExportsOf = async (realm: Realm): Promise<ApiRealmExport[]> =>
  (await exportsStore.listRealmExports(realm.id)).map((e) => toApiRealmExport(e, realmUrl(realm)));

/** `realm_export` with the whole list, to the organization's active human administrators (upstream's get_human_admin_users). */
export const notifyRealmExport = async (realmId: number): Promise<void> => {
  const realm = await realmsStore.get(realmId);
  if (!realm) return;
  const admins = (await usersStore.listOfRealm(realmId)).filter((u) => u.isActive && !u.isBot && isAdmin(u)).map((u) => u.id);
  await sendEvent(realmId, { type: 'realm_export', exports: await apiExportsOf(realm) }, { users: admins });
};

/**
 * POST /export/realm: refused past 5 exports in 7 days ("Exceeded rate limit."), for an
 * organization whose messages or uploads exceed upstream's limits ("Please request a manual export
 * from <administrator>."), and for a full export without consent, which needs an organization
 * setting this server does not have. Writes the export as requested, tells the administrators, and
 * starts the realmExport job. Returns the export's id.
 */
export const checkStartRealmExport = forAdministrators(async (user: User, realm: Realm, exportType: ExportType): Promise<number> => {
  if (exportType === 'full_without_consent')
    throw new BadRequestError('Full exports without member consent are not enabled for this organization.');
  const now = nowMs() / 1000;
  const recent = (await exportsStore.listRealmExports(realm.id)).filter((e) => e.dateRequested >= now - WEEK_SECONDS);
  if (recent.length >= EXPORT_LIMIT_PER_WEEK) throw new BadRequestError('Exceeded rate limit.');
  const messages = await exportsStore.readCounter(`message#${realm.id}`);
  if (messages > MAX_EXPORTABLE_MESSAGES || (await getUploadSpaceUsed(realm.id)) > MAX_EXPORTABLE_UPLOAD_BYTES)
    throw new BadRequestError(`Please request a manual export from ${config.pushContactEmail()}.`);
  const row: RealmExport = {
    id: await allocateIds('realmExport'),
    realmId: realm.id,
    actingUserId: user.id,
    exportType,
    status: 'requested',
    dateRequested: now,
    token: randomBytes(18).toString('base64url'),
  };
  await exportsStore.putRealmExport(row);
  await notifyRealmExport(realm.id);
  await startJob('realmExport', { realmId: realm.id, exportId: row.id });
  return row.id;
});

/** GET /export/realm: every export of the organization, in id order. */
export const readRealmExports = forAdministrators(async (_user: User, realm: Realm): Promise<ApiRealmExport[]> => apiExportsOf(realm));

/**
 * GET /export/realm/consents: each active human user's consent to an export of their private data
 * (the `allow_private_data_export` setting) and email visibility, in id order.
 */
export const readExportConsents = forAdministrators(
  async (user: User): Promise<{ user_id: number; consented: boolean; email_address_visibility: number }[]> =>
    (await usersStore.listOfRealm(user.realmId))
      .filter((u) => u.isActive && !u.isBot)
      .sort((a, b) => a.id - b.id)
      .map((u) => {
        const settings = settingsOfUser(u);
        return {
          user_id: u.id,
          consented: settings.allow_private_data_export,
          email_address_visibility: settings.email_address_visibility,
        };
      }),
);

/**
 * DELETE /export/realm/{export_id}: deletes a finished export's archive and marks it deleted.
 * Upstream's refusals, in its order: "Invalid data export ID" (none of this organization), "Export
 * already deleted", "Export failed, nothing to delete", "Export still in progress". Tells the
 * administrators.
 */
export const checkDeleteRealmExport = forAdministrators(async (user: User, exportId: number): Promise<void> => {
  const row = await exportsStore.getRealmExport(user.realmId, exportId);
  if (!row) throw new BadRequestError('Invalid data export ID');
  if (row.status === 'deleted') throw new BadRequestError('Export already deleted');
  if (row.status === 'failed') throw new BadRequestError('Export failed, nothing to delete');
  if (row.status !== 'succeeded' || row.exportPath === undefined) throw new BadRequestError('Export still in progress');
  // Marked first, so that a concurrent second delete is refused; the object's deletion is idempotent.
  if (!(await exportsStore.updateRealmExport(row, { status: 'succeeded' }, { status: 'deleted', dateDeleted: nowMs() / 1000 })))
    throw new BadRequestError('Export already deleted');
  await deleteFile(row.exportPath);
  await notifyRealmExport(user.realmId);
});

/**
 * GET /user_avatars/exports/{realm_id}/{token}/{filename} (an export's `export_url`): for an
 * administrator of the export's organization, a presigned S3 URL of the archive that works for
 * EXPORT_DOWNLOAD_URL_SECONDS, as upstream's S3 backend signs its downloads. An export of another
 * organization, an unknown token or file name, and an export not (or no longer) downloadable
 * (pending, failed, deleted) are all upstream's 404 "File not found.", so nothing tells another
 * organization's export apart from none. Reads only.
 */
export const readRealmExportDownloadUrl = forAdministrators(
  async (user: User, realmIdText: string, token: string, filename: string): Promise<string> => {
    if (realmIdText !== String(user.realmId)) throw fileNotFound();
    const row = (await exportsStore.listRealmExports(user.realmId)).find((e) => e.token === token);
    if (!row || row.status !== 'succeeded' || row.exportPath === undefined || filename !== exportArchiveName(row)) throw fileNotFound();
    return signedDownloadUrl(row.exportPath, filename, EXPORT_DOWNLOAD_URL_SECONDS);
  },
);
