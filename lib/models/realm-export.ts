// An organization's data export (upstream's RealmExport, zerver/models/realms.py): who asked for
// it, which kind, where it stands, and where its archive is. The API shows it as upstream's
// RealmExport object (GET /export/realm, the `realm_export` event).

/** Upstream's export types as the API names them (feature level 449): public data only, or with the private data of members who consented. */
export const EXPORT_TYPES = ['public', 'full_with_consent', 'full_without_consent'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** Upstream's RealmExport statuses. */
export type ExportStatus = 'requested' | 'started' | 'succeeded' | 'failed' | 'deleted';

/**
 * Where a running export's job stands (the checkpoint one run leaves for the next): the message ids
 * still to read run from `nextMessageId` to `lastMessageId` (the organization's message counter when
 * the export started), `files` message files are written so far, holding `messages` messages and
 * `reactions` reactions (the next reaction's id follows).
 */
export type ExportProgress = { nextMessageId: number; lastMessageId: number; files: number; messages: number; reactions: number };

export type RealmExport = {
  id: number;
  realmId: number;
  actingUserId: number;
  exportType: ExportType;
  status: ExportStatus;
  /** Seconds since the epoch (fractions kept, as upstream's timestamps). */
  dateRequested: number;
  dateStarted?: number;
  dateSucceeded?: number;
  dateFailed?: number;
  dateDeleted?: number;
  /** An unguessable segment of its storage keys and URL. */
  token: string;
  /** The archive's S3 key, once written. */
  exportPath?: string;
  progress?: ExportProgress;
  /** The runs of its job so far: a run that starts with the export already `started` by an earlier one continues from `progress`. */
  runs?: number;
  /** Runs in a row that failed at the same checkpoint (reset by a run that gets further): the third marks the export failed. */
  failures?: number;
};

/** Upstream's RealmExport object. `export_url` is the archive's download link, null until it exists and after it is deleted. */
export type ApiRealmExport = {
  id: number;
  acting_user_id: number;
  export_time: number;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  export_url: string | null;
  pending: boolean;
  export_type: ExportType;
};

/** The folder name inside the archive and the archive's file name, as upstream names them (`zulip-export-<random>`). */
export const exportFolderName = (e: Pick<RealmExport, 'token'>): string => `zulip-export-${e.token.slice(0, 8).toLowerCase()}`;

/** The archive's file name (the last segment of its download link and of its S3 key). */
export const exportArchiveName = (e: Pick<RealmExport, 'token'>): string => `${exportFolderName(e)}.tar.gz`;

/**
 * Where the archive is downloaded: under the organization's URL, at upstream's local backend's
 * path; GET /user_avatars/exports/{realm_id}/{token}/{filename} answers it for administrators.
 */
const exportUrlPath = (e: Pick<RealmExport, 'realmId' | 'token'>): string =>
  `/user_avatars/exports/${e.realmId}/${e.token}/${exportArchiveName(e)}`;

export const toApiRealmExport = (e: RealmExport, realmUrl: string): ApiRealmExport => ({
  id: e.id,
  acting_user_id: e.actingUserId,
  export_time: e.dateRequested,
  deleted_timestamp: e.dateDeleted ?? null,
  failed_timestamp: e.dateFailed ?? null,
  export_url: e.status === 'succeeded' ? `${realmUrl}${exportUrlPath(e)}` : null,
  pending: e.status === 'requested' || e.status === 'started',
  export_type: e.exportType,
});

/** How long a download's presigned S3 URL works (upstream's SIGNED_UPLOAD_URL_DURATION). */
export const EXPORT_DOWNLOAD_URL_SECONDS = 60;

/** Upstream's limits on exports an administrator may start: 5 a week, and larger organizations by hand. */
export const EXPORT_LIMIT_PER_WEEK = 5;
export const MAX_EXPORTABLE_MESSAGES = 250_000;
export const MAX_EXPORTABLE_UPLOAD_BYTES = 10 * 1024 * 1024 * 1024;
