// Reading an unpacked export (import-archive.ts) before anything is written: its format
// (migration_status.json), realm.json's tables, every message file and attachment.json, each
// parsed and every id checked to name something the export holds. A problem is refused with a
// message naming the file, the record and the field (ImportRefusedError); only an export that
// passes is written (import-write.ts). The message files are read here once to check them and
// their ids, and again one at a time when written: none is kept in memory.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EXPORT_FORMAT, RecipientType, type ExportRecord } from '../../models/export-format';
import { ROLE_VALUES } from '../../models/user';
import { ImportRefusedError } from './import-archive';

/** The largest JSON file read whole (a message file holds 1,000 messages; realm.json every user and channel). */
const MAX_JSON_BYTES = 256 * 1024 ** 2;
/** Upstream's major versions whose exports carry the tables read here. */
const FIRST_UPSTREAM_MAJOR = 7;

type Recipient = { type: number; typeId: number };

/** What the writer needs of a checked export; the message files are re-read by name. */
export type ImportPlan = {
  dir: string;
  realm: ExportRecord;
  users: ExportRecord[];
  channels: ExportRecord[];
  /** zerver_recipient by id. */
  recipients: Map<number, Recipient>;
  /** A direct-message group's members by its recipient id (from its subscriptions, as upstream's importer reads them). */
  groupMembers: Map<number, number[]>;
  subscriptions: ExportRecord[];
  reactionsByMessage: Map<number, ExportRecord[]>;
  messageFiles: string[];
  /** Every exported message id, ascending: a message's new id is its place here + 1. */
  messageIds: number[];
  attachments: ExportRecord[];
  /** System bots the messages name (zerver_userprofile_crossrealm): their emails by exported id. */
  crossRealm: Map<number, string>;
  /** zerver_client names by id (upstream's messages name their client by id). */
  clients: Map<number, string>;
};

const refuse = (message: string): never => {
  throw new ImportRefusedError(message);
};

/** A JSON member, parsed; a missing or malformed one is refused with upstream's or a clear message. */
export const readJsonMember = async (dir: string, name: string, missing?: string): Promise<unknown> => {
  const path = join(dir, name);
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : undefined),
    () => undefined,
  );
  if (size === undefined) return refuse(missing ?? `Missing ${name} file!`);
  if (size > MAX_JSON_BYTES) refuse(`Refusing the archive: ${name} is past the limit of ${MAX_JSON_BYTES} bytes for a JSON file.`);
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return refuse(`Malformed JSON in ${name}: ${(error as Error).message}`);
  }
};

/** Field checks of one record, each refusal naming the file, table, record and field. */
class Checker {
  constructor(
    private readonly file: string,
    private readonly table: string,
  ) {}

  private where(rec: ExportRecord, field: string): string {
    return `${this.file}: ${this.table} record ${JSON.stringify(rec.id ?? null)}, field ${field}`;
  }

  int(rec: ExportRecord, field: string, opts: { nullable?: boolean } = {}): number {
    const v = rec[field];
    if ((v === null || v === undefined) && opts.nullable) return NaN;
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      return refuse(`${this.where(rec, field)}: not an integer (${JSON.stringify(v)}).`);
    return v;
  }

  num(rec: ExportRecord, field: string): number {
    const v = rec[field];
    if (typeof v !== 'number' || !Number.isFinite(v)) return refuse(`${this.where(rec, field)}: not a number (${JSON.stringify(v)}).`);
    return v;
  }

  str(rec: ExportRecord, field: string, opts: { nullable?: boolean } = {}): string {
    const v = rec[field];
    if ((v === null || v === undefined) && opts.nullable) return '';
    if (typeof v !== 'string') return refuse(`${this.where(rec, field)}: not a string (${JSON.stringify(v)}).`);
    return v;
  }

  /** A reference: `field` must be one of `ids` (or null where allowed). */
  ref(rec: ExportRecord, field: string, ids: { has(id: number): boolean }, what: string, opts: { nullable?: boolean } = {}): number {
    const v = this.int(rec, field, opts);
    if (Number.isNaN(v)) return v;
    if (!ids.has(v)) refuse(`${this.where(rec, field)}: ${v} names no ${what} of the export.`);
    return v;
  }

  unique(rec: ExportRecord, seen: Set<number>): number {
    const id = this.int(rec, 'id');
    if (seen.has(id)) refuse(`${this.file}: ${this.table} has record ${id} twice.`);
    seen.add(id);
    return id;
  }
}

const table = (data: Record<string, unknown>, file: string, name: string, required = true): ExportRecord[] => {
  const rows = data[name];
  if (rows === undefined && !required) return [];
  if (!Array.isArray(rows) || rows.some((r) => typeof r !== 'object' || r === null || Array.isArray(r)))
    return refuse(`${file}: ${name} is missing or not a list of records.`);
  return rows as ExportRecord[];
};

/**
 * The archive's format: ours (`{"server": "serverless-chat", "format": 1}`) or upstream's
 * (`zulip_version` of a supported major). Anything else is refused.
 */
const checkFormat = async (dir: string): Promise<void> => {
  const status = await readJsonMember(
    dir,
    'migration_status.json',
    "Missing migration_status.json file! Make sure you're using the same Zulip version as the exported realm.",
  );
  if (typeof status !== 'object' || status === null) return refuse('migration_status.json: not an object.');
  const s = status as Record<string, unknown>;
  if (s.server === EXPORT_FORMAT.server) {
    if (s.format !== EXPORT_FORMAT.format)
      refuse(`Export format ${JSON.stringify(s.format)} is not supported: this server reads format ${EXPORT_FORMAT.format}.`);
    return;
  }
  const major = typeof s.zulip_version === 'string' ? Number(/^(\d+)\./.exec(s.zulip_version)?.[1]) : NaN;
  if (!(major >= FIRST_UPSTREAM_MAJOR))
    refuse(
      `Export was generated on a Zulip version this server does not read (migration_status.json: ${JSON.stringify(status).slice(0, 200)}).`,
    );
};

/** A message file's tables, checked against the users and recipients, with its message ids (added to `seen`). */
const checkMessageFile = async (
  plan: ImportPlan,
  name: string,
  userIds: Set<number>,
  memberIds: Set<number>,
  seen: Set<number>,
): Promise<void> => {
  const data = (await readJsonMember(plan.dir, name)) as Record<string, unknown>;
  if (typeof data !== 'object' || data === null) return refuse(`${name}: not an object.`);
  const c = new Checker(name, 'zerver_message');
  const inFile = new Set<number>();
  for (const m of table(data, name, 'zerver_message')) {
    const id = c.unique(m, seen);
    inFile.add(id);
    c.ref(m, 'sender', userIds, 'user');
    c.ref(m, 'recipient', plan.recipients, 'recipient');
    c.str(m, 'subject');
    c.str(m, 'content');
    c.str(m, 'rendered_content', { nullable: true });
    c.num(m, 'date_sent');
    if (m.edit_history !== null && m.edit_history !== undefined) {
      const history = parseEditHistory(m, name);
      for (const entry of history) {
        if (entry.user_id !== null && entry.user_id !== undefined && !userIds.has(Number(entry.user_id)))
          refuse(
            `${name}: zerver_message record ${id}, field edit_history: user ${JSON.stringify(entry.user_id)} names no user of the export.`,
          );
      }
    }
  }
  const r = new Checker(name, 'zerver_usermessage');
  const rows = new Set<string>();
  for (const row of table(data, name, 'zerver_usermessage')) {
    const key = `${r.ref(row, 'user_profile', memberIds, 'user')}|${r.ref(row, 'message', inFile, 'message of this file')}`;
    if (rows.has(key)) refuse(`${name}: zerver_usermessage has two rows of user ${row.user_profile} for message ${row.message}.`);
    rows.add(key);
    r.int(row, 'flags_mask');
  }
};

/** A message's edit_history (a JSON text upstream's way, or a list), as entries. */
export const parseEditHistory = (m: ExportRecord, file: string): Record<string, unknown>[] => {
  if (m.edit_history === null || m.edit_history === undefined) return [];
  let history: unknown = m.edit_history;
  try {
    if (typeof history === 'string') history = JSON.parse(history);
  } catch {
    return refuse(`${file}: zerver_message record ${JSON.stringify(m.id)}, field edit_history: malformed JSON.`);
  }
  if (!Array.isArray(history) || history.some((e) => typeof e !== 'object' || e === null))
    return refuse(`${file}: zerver_message record ${JSON.stringify(m.id)}, field edit_history: not a list of edits.`);
  return history as Record<string, unknown>[];
};

/** The message files the export lists (upstream's names, numbered from 1 with no gap). */
const messageFileNames = async (dir: string): Promise<string[]> => {
  const names: string[] = [];
  for (let n = 1; ; n++) {
    const name = `messages-${String(n).padStart(6, '0')}.json`;
    if (
      !(await stat(join(dir, name)).then(
        () => true,
        () => false,
      ))
    )
      return names;
    names.push(name);
  }
};

/**
 * Reads and checks the unpacked export in `dir`; refuses (ImportRefusedError) a missing or
 * malformed file, an unsupported format, a record without its fields and an id that names nothing.
 */
export const readImportPlan = async (dir: string): Promise<ImportPlan> => {
  await checkFormat(dir);
  const data = (await readJsonMember(dir, 'realm.json')) as Record<string, unknown>;
  if (typeof data !== 'object' || data === null) return refuse('realm.json: not an object.');
  const [realm] = table(data, 'realm.json', 'zerver_realm');
  if (!realm) return refuse('realm.json: zerver_realm has no organization.');

  // Upstream's mirror dummies (inactive accounts of people mirrored from elsewhere) are users like the others, as its importer takes them.
  const users = [...table(data, 'realm.json', 'zerver_userprofile'), ...table(data, 'realm.json', 'zerver_userprofile_mirrordummy', false)];
  const userIds = new Set<number>();
  const u = new Checker('realm.json', 'zerver_userprofile');
  const emails = new Set<string>();
  for (const user of users) {
    u.unique(user, userIds);
    const email = (typeof user.delivery_email === 'string' ? user.delivery_email : u.str(user, 'email')).toLowerCase();
    if (emails.has(email)) refuse(`realm.json: zerver_userprofile has the email ${email} twice.`);
    emails.add(email);
    u.str(user, 'full_name');
    if (!(ROLE_VALUES as readonly unknown[]).includes(user.role))
      refuse(`realm.json: zerver_userprofile record ${user.id}, field role: unknown role ${JSON.stringify(user.role)}.`);
  }
  for (const user of users) u.ref(user, 'bot_owner', userIds, 'user', { nullable: true });
  // System bots post in every organization: messages may name them, and they map to this server's own.
  const crossRealm = new Map<number, string>();
  const x = new Checker('realm.json', 'zerver_userprofile_crossrealm');
  for (const bot of table(data, 'realm.json', 'zerver_userprofile_crossrealm', false)) {
    const id = x.int(bot, 'id');
    if (userIds.has(id)) refuse(`realm.json: zerver_userprofile_crossrealm record ${id} is also a user of the organization.`);
    crossRealm.set(id, x.str(bot, 'email'));
  }
  const userOrBotIds = new Set([...userIds, ...crossRealm.keys()]);

  const channels = table(data, 'realm.json', 'zerver_stream');
  const channelIds = new Set<number>();
  const channelNames = new Set<string>();
  const s = new Checker('realm.json', 'zerver_stream');
  for (const channel of channels) {
    s.unique(channel, channelIds);
    const name = s.str(channel, 'name').toLowerCase();
    if (channelNames.has(name)) refuse(`realm.json: zerver_stream has the name ${JSON.stringify(channel.name)} twice.`);
    channelNames.add(name);
    s.ref(channel, 'creator', userIds, 'user', { nullable: true });
  }

  const huddleIds = new Set<number>();
  const h = new Checker('realm.json', 'zerver_huddle');
  for (const huddle of table(data, 'realm.json', 'zerver_huddle', false)) h.unique(huddle, huddleIds);

  const recipients = new Map<number, Recipient>();
  const recipientIds = new Set<number>();
  const rc = new Checker('realm.json', 'zerver_recipient');
  for (const rec of table(data, 'realm.json', 'zerver_recipient')) {
    const id = rc.unique(rec, recipientIds);
    const type = rc.int(rec, 'type');
    const targets = {
      [RecipientType.PERSONAL]: [userOrBotIds, 'user'],
      [RecipientType.STREAM]: [channelIds, 'channel'],
      [RecipientType.DIRECT_MESSAGE_GROUP]: [huddleIds, 'direct-message group'],
    } as const;
    const target = targets[type as keyof typeof targets];
    if (!target) return refuse(`realm.json: zerver_recipient record ${id}, field type: unknown type ${type}.`);
    recipients.set(id, { type, typeId: rc.ref(rec, 'type_id', target[0], target[1]) });
  }

  const subscriptions = table(data, 'realm.json', 'zerver_subscription');
  const groupMembers = new Map<number, number[]>();
  const sc = new Checker('realm.json', 'zerver_subscription');
  for (const sub of subscriptions) {
    const userId = sc.ref(sub, 'user_profile', userIds, 'user');
    const recipientId = sc.ref(sub, 'recipient', recipients, 'recipient');
    if (recipients.get(recipientId)!.type === RecipientType.DIRECT_MESSAGE_GROUP)
      groupMembers.set(recipientId, [...(groupMembers.get(recipientId) ?? []), userId]);
  }

  const clients = new Map<number, string>();
  for (const client of table(data, 'realm.json', 'zerver_client', false))
    if (typeof client.id === 'number' && typeof client.name === 'string') clients.set(client.id, client.name);

  const plan: ImportPlan = {
    dir,
    realm,
    users,
    channels,
    recipients,
    groupMembers,
    subscriptions,
    reactionsByMessage: new Map(),
    messageFiles: await messageFileNames(dir),
    messageIds: [],
    attachments: [],
    clients,
    crossRealm,
  };
  const seen = new Set<number>();
  for (const name of plan.messageFiles) await checkMessageFile(plan, name, userOrBotIds, userIds, seen);
  plan.messageIds = [...seen].sort((a, b) => a - b);

  const rx = new Checker('realm.json', 'zerver_reaction');
  for (const reaction of table(data, 'realm.json', 'zerver_reaction', false)) {
    const messageId = rx.ref(reaction, 'message', seen, 'message');
    rx.ref(reaction, 'user_profile', userIds, 'user');
    rx.str(reaction, 'emoji_name');
    rx.str(reaction, 'emoji_code');
    rx.str(reaction, 'reaction_type');
    plan.reactionsByMessage.set(messageId, [...(plan.reactionsByMessage.get(messageId) ?? []), reaction]);
  }

  const attachmentData = (await readJsonMember(dir, 'attachment.json')) as Record<string, unknown>;
  if (typeof attachmentData !== 'object' || attachmentData === null) return refuse('attachment.json: not an object.');
  const ac = new Checker('attachment.json', 'zerver_attachment');
  for (const a of table(attachmentData, 'attachment.json', 'zerver_attachment')) {
    ac.ref(a, 'owner', userIds, 'user');
    const pathId = ac.str(a, 'path_id');
    if (pathId.split('/').some((p) => p === '..' || p === '.' || p === '') || pathId.includes('\\'))
      refuse(
        `attachment.json: zerver_attachment record ${JSON.stringify(a.id)}, field path_id: ${JSON.stringify(pathId)} is not a file's path.`,
      );
    ac.str(a, 'file_name');
    const messages = a.messages;
    if (!Array.isArray(messages))
      return refuse(`attachment.json: zerver_attachment record ${JSON.stringify(a.id)}, field messages: not a list.`);
    for (const id of messages)
      if (!seen.has(id as number))
        refuse(
          `attachment.json: zerver_attachment record ${JSON.stringify(a.id)}, field messages: ${JSON.stringify(id)} names no message of the export.`,
        );
    const file = await stat(join(dir, 'uploads', pathId)).catch(() => undefined);
    if (!file?.isFile()) refuse(`Missing file uploads/${pathId} of attachment ${JSON.stringify(a.id)}.`);
    plan.attachments.push(a);
  }
  return plan;
};
