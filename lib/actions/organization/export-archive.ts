// The last run of an export writes its archive: upstream's layout (zerver/lib/export.py) in a
// folder `zulip-export-<random>/`, gzipped tar, as one S3 object:
//
//   realm.json          zerver_realm, zerver_userprofile, zerver_userprofile_crossrealm (the
//                       system bots messages name), zerver_stream, zerver_recipient,
//                       zerver_subscription, zerver_huddle, zerver_reaction
//   messages-000001.json …  zerver_message, zerver_usermessage, 1,000 messages to a file
//   attachment.json     zerver_attachment (the files exported messages link, with their message ids)
//   uploads/records.json and uploads/<path id>   the files' bytes
//   avatars/records.json and avatars/<path>.png  uploaded avatars
//   emoji/records.json, realm_icons/records.json  (none yet: empty lists)
//   migration_status.json  the format, which an import checks; stats.json  the counts
//
// Message records carry recipient keys until here (export-format.ts recipientKeyOf): this run
// gives each recipient its zerver_recipient id (users, then channels, then groups of three or more
// as they are met) and renumbers the non-empty message files from 1, as upstream numbers them.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { EXPORT_FORMAT, RecipientType, channelRecord, subscriptionRecord, userRecord, type ExportRecord } from '../../models/export-format';
import { uploadedAvatarKey } from '../../models/avatar';
import { exportFolderName, type ExportProgress, type RealmExport } from '../../models/realm-export';
import { getAttachmentWithClaims, listUploadsOfUser } from '../../store/attachments';
import { listSubscriptionsOfUser } from '../../store/channels';
import { getFile, putFile } from '../../store/files';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { INTERNAL_REALM_ID } from '../../models/user';
import type { Channel } from '../../models/channel';
import type { User } from '../../models/user';

/** A staged or archived message file's name (upstream's `messages-000001.json`). */
export const stagedMessageFile = (n: number): string => `messages-${String(n).padStart(6, '0')}.json`;

/** What every file of a run needs: who consented, which channels are public. */
export type ExportScope = { users: User[]; consenting: Set<number>; publicChannels: Set<number>; channels: Channel[] };

type Entry = { name: string; body: Buffer };

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2));

/** zerver_recipient ids by recipient key, assigned in the order met. */
class Recipients {
  readonly records: ExportRecord[] = [];
  readonly huddles: ExportRecord[] = [];
  private readonly ids = new Map<string, number>();

  idOf(key: string): number {
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.records.length + 1;
    this.ids.set(key, id);
    const kind = key[0];
    if (kind === 'P') this.records.push({ id, type: RecipientType.PERSONAL, type_id: Number(key.slice(1)) });
    else if (kind === 'C') this.records.push({ id, type: RecipientType.STREAM, type_id: Number(key.slice(1)) });
    else {
      const huddleId = this.huddles.length + 1;
      this.huddles.push({ id: huddleId, huddle_hash: key.slice(1), recipient: id, group_size: key.slice(1).split(',').length });
      this.records.push({ id, type: RecipientType.DIRECT_MESSAGE_GROUP, type_id: huddleId });
    }
    return id;
  }
}

/**
 * The system bots the messages name (senders and direct-message recipients outside the
 * organization), as upstream's zerver_userprofile_crossrealm: an import maps each, by email, to
 * the importing server's own.
 */
const crossRealmRecords = async (scope: ExportScope, recipients: Recipients, senders: Set<number>): Promise<ExportRecord[]> => {
  const members = new Set(scope.users.map((u) => u.id));
  const personal = recipients.records.filter((r) => r.type === RecipientType.PERSONAL);
  const outside = [...new Set([...senders, ...personal.map((r) => Number(r.type_id))])].filter((id) => !members.has(id));
  const bots =
    outside.length === 0
      ? []
      : await usersStore.getMany(
          INTERNAL_REALM_ID,
          outside.sort((a, b) => a - b),
        );
  return bots.map((b) => ({ id: b.id, email: b.email, recipient_id: personal.find((r) => r.type_id === b.id)?.id ?? null }));
};

/** Packs entries into a gzipped tar under `folder/`, in memory. */
const tarGz = async (folder: string, entries: Entry[]): Promise<Buffer> => {
  const tar = pack();
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const written = pipeline(tar, createGzip(), sink);
  for (const entry of entries) tar.entry({ name: `${folder}/${entry.name}`, size: entry.body.length, mode: 0o644 }, entry.body);
  tar.finalize();
  await written;
  return Buffer.concat(chunks);
};

type StagedFile = { zerver_message: ExportRecord[]; zerver_usermessage: ExportRecord[]; zerver_reaction: ExportRecord[] };

/** The message files, renumbered and with recipient ids; the exported message ids and reactions. */
const messageEntries = async (
  progress: ExportProgress,
  recipients: Recipients,
  readStaged: (name: string) => Promise<Buffer>,
): Promise<{ entries: Entry[]; messageIds: Set<number>; reactions: ExportRecord[]; senders: Set<number> }> => {
  const entries: Entry[] = [];
  const messageIds = new Set<number>();
  const senders = new Set<number>();
  const reactions: ExportRecord[] = [];
  for (let n = 1; n <= progress.files; n++) {
    const file = JSON.parse((await readStaged(stagedMessageFile(n))).toString('utf8')) as StagedFile;
    reactions.push(...file.zerver_reaction);
    if (file.zerver_message.length === 0) continue;
    for (const m of file.zerver_message) {
      m.recipient = recipients.idOf(String(m.recipient));
      messageIds.add(Number(m.id));
      senders.add(Number(m.sender));
    }
    const body = json({ zerver_message: file.zerver_message, zerver_usermessage: file.zerver_usermessage });
    entries.push({ name: stagedMessageFile(entries.length + 1), body });
  }
  return { entries, messageIds, reactions, senders };
};

/** The files exported messages link: attachment.json's records, and each file's bytes with its uploads/ record. */
const uploadEntries = async (scope: ExportScope, realmId: number, messageIds: Set<number>): Promise<Entry[]> => {
  const attachments: ExportRecord[] = [];
  const records: ExportRecord[] = [];
  const files: Entry[] = [];
  for (const user of scope.users) {
    for (const upload of await listUploadsOfUser(user.id)) {
      const found = await getAttachmentWithClaims(upload.pathId);
      if (!found) continue;
      const linked = found.claims.map((c) => c.messageId).filter((id) => messageIds.has(id));
      if (linked.length === 0) continue;
      const a = found.attachment;
      const body = await getFile(a.pathId);
      if (!body) continue;
      attachments.push({
        id: a.id,
        realm: realmId,
        owner: a.ownerId,
        file_name: a.name,
        path_id: a.pathId,
        size: a.size,
        content_type: a.contentType,
        create_time: a.createTime,
        is_realm_public: a.isRealmPublic,
        is_web_public: a.isWebPublic,
        messages: linked.sort((x, y) => x - y),
      });
      records.push({
        path: a.pathId,
        s3_path: a.pathId,
        realm_id: realmId,
        user_profile_id: a.ownerId,
        user_profile_email: user.email,
        content_type: a.contentType,
        size: a.size,
        last_modified: a.createTime,
      });
      files.push({ name: `uploads/${a.pathId}`, body });
    }
  }
  return [
    { name: 'attachment.json', body: json({ zerver_attachment: attachments }) },
    { name: 'uploads/records.json', body: json(records) },
    ...files,
  ];
};

/** Uploaded avatars (both sizes) with avatars/records.json. */
const avatarEntries = async (scope: ExportScope, realmId: number): Promise<Entry[]> => {
  const records: ExportRecord[] = [];
  const files: Entry[] = [];
  for (const user of scope.users) {
    if (user.avatarSource !== 'U' || user.avatarPath === undefined) continue;
    for (const medium of [false, true]) {
      const key = uploadedAvatarKey(user.avatarPath, { medium });
      const body = await getFile(key);
      if (!body) continue;
      records.push({
        path: key,
        s3_path: key,
        realm_id: realmId,
        user_profile_id: user.id,
        user_profile_email: user.email,
        content_type: 'image/png',
      });
      files.push({ name: `avatars/${key}`, body });
    }
  }
  return [{ name: 'avatars/records.json', body: json(records) }, ...files];
};

/**
 * Writes the archive of an export whose message files are all staged (`readStaged` reads one),
 * and returns its S3 key.
 */
export const writeExportArchive = async (
  e: RealmExport,
  scope: ExportScope,
  progress: ExportProgress,
  readStaged: (name: string) => Promise<Buffer>,
): Promise<string> => {
  const realm = await realmsStore.get(e.realmId);
  if (!realm) throw new Error(`export ${e.id}: organization ${e.realmId} is gone`);
  const recipients = new Recipients();
  for (const u of scope.users) recipients.idOf(`P${u.id}`);
  for (const c of scope.channels) recipients.idOf(`C${c.id}`);
  const messages = await messageEntries(progress, recipients, readStaged);

  const subscriptions: ExportRecord[] = [];
  const subscribe = (record: (id: number) => ExportRecord) => subscriptions.push(record(subscriptions.length + 1));
  for (const u of scope.users) {
    subscribe((id) => ({ id, user_profile: u.id, recipient: recipients.idOf(`P${u.id}`), active: true, is_user_active: u.isActive }));
    for (const s of await listSubscriptionsOfUser(u.id)) subscribe((id) => subscriptionRecord(s, id, recipients.idOf(`C${s.channelId}`)));
  }
  for (const h of recipients.huddles)
    for (const userId of String(h.huddle_hash).split(',').map(Number))
      subscribe((id) => ({ id, user_profile: userId, recipient: h.recipient, active: true, is_user_active: true }));

  const realmJson = {
    zerver_realm: [
      {
        id: realm.id,
        string_id: realm.stringId,
        name: realm.name,
        description: realm.description,
        date_created: realm.dateCreated,
        deactivated: realm.deactivated,
        default_language: realm.defaultLanguage ?? 'en',
        ...realm.properties,
      },
    ],
    zerver_userprofile: scope.users.map((u) => userRecord(u, { consented: scope.consenting.has(u.id) })),
    zerver_userprofile_crossrealm: await crossRealmRecords(scope, recipients, messages.senders),
    zerver_stream: scope.channels.map((c) => ({ ...channelRecord(c), recipient: recipients.idOf(`C${c.id}`) })),
    zerver_recipient: recipients.records,
    zerver_subscription: subscriptions,
    zerver_huddle: recipients.huddles,
    zerver_reaction: messages.reactions,
  };
  const uploads = await uploadEntries(scope, realm.id, messages.messageIds);
  const avatars = await avatarEntries(scope, realm.id);
  const stats = {
    messages: messages.messageIds.size,
    message_files: messages.entries.length,
    users: scope.users.length,
    channels: scope.channels.length,
    reactions: messages.reactions.length,
  };
  const folder = exportFolderName(e);
  const archive = await tarGz(folder, [
    { name: 'realm.json', body: json(realmJson) },
    ...messages.entries,
    ...uploads,
    ...avatars,
    { name: 'emoji/records.json', body: json([]) },
    { name: 'realm_icons/records.json', body: json([]) },
    { name: 'migration_status.json', body: json({ ...EXPORT_FORMAT, export_type: e.exportType }) },
    { name: 'stats.json', body: json(stats) },
  ]);
  const exportPath = `exports/${e.realmId}/${e.token}/${folder}.tar.gz`;
  await putFile(exportPath, archive, 'application/gzip');
  return exportPath;
};
