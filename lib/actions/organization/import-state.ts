// What an import keeps between its runs, next to its archive in S3 under `<key>.import/<subdomain>/`
// (the checkpoint item, lib/store/imports.ts, says which run goes on and from where):
//
// - `ids.json`, written once by the first run before it writes anything: the new organization's
//   id, its creation time, every allocated id (users, channels, uploads' path ids, system groups,
//   the first attachment id), so that a later run never allocates again. S3 rather than the
//   checkpoint item: the maps grow with the organization, past DynamoDB's 400 KB item limit.
// - `undo/<from>-<n>.json`, one per write, put BEFORE the write it lists (the keys of its items,
//   the uploads' files): whatever any run wrote, even one that died half-way, is listed there, so
//   a refusal or a final failure removes everything every run wrote (removeImport). Names are
//   fixed by where the run starts, so a replayed run overwrites its own entries.
import type { Key } from '../../store/keys';
import type { UserGroup } from '../../models/user-group';
import { batchDelete, batchPut, type Item } from '../../store/common';
import { deleteFile, deleteObject, getObjectBody, listObjectKeys, putObject } from '../../store/files';
import { deleteCheckpoint, type ImportHome } from '../../store/imports';
import type { IdMaps } from './import-ids';

const WRITE_CONCURRENCY = 8;

/** The allocated ids of an import, as saved by its first run. */
export type SavedIds = {
  realmId: number;
  now: number;
  users: [number, number][];
  channels: [number, number][];
  uploads: [string, string][];
  groups: UserGroup[];
  firstAttachmentId: number;
};

const prefixOf = (home: ImportHome): string => `${home.key}.import/${home.subdomain}/`;

/** Saves the first run's allocations and returns them as a later run loads them. */
export const saveIds = async (
  home: ImportHome,
  ids: IdMaps,
  rest: Pick<SavedIds, 'realmId' | 'now' | 'groups' | 'firstAttachmentId'>,
): Promise<SavedIds> => {
  const saved: SavedIds = { ...rest, users: [...ids.users], channels: [...ids.channels], uploads: [...ids.uploads] };
  await putObject(home.bucket, `${prefixOf(home)}ids.json`, Buffer.from(JSON.stringify(saved)));
  return saved;
};

/** The saved ids; a run whose checkpoint names an organization and finds none has a broken checkpoint. */
export const loadIds = async (home: ImportHome): Promise<SavedIds> => {
  const body = await getObjectBody(home.bucket, `${prefixOf(home)}ids.json`);
  if (!body) throw new Error(`import ${home.subdomain}: the checkpoint's ids.json is missing`);
  return JSON.parse(body.toString('utf8')) as SavedIds;
};

/** Writes items and files, each write listed in the undo log before it is made. */
export class ImportWriter {
  private seq = 0;
  /** DynamoDB write units of the items written (1 per KB or part of one), for the benchmark. */
  writeUnits = 0;

  /** `from`: where the run starts (its entries' names). */
  constructor(
    private readonly home: ImportHome,
    private readonly from: number,
  ) {}

  /** Lists keys and files in the undo log: call before writing them. */
  async remember(itemKeys: Key[], files: string[] = []): Promise<void> {
    const name = `${prefixOf(this.home)}undo/${String(this.from).padStart(10, '0')}-${String(this.seq++).padStart(6, '0')}.json`;
    await putObject(this.home.bucket, name, Buffer.from(JSON.stringify({ keys: itemKeys, files })));
  }

  async put(items: Item[]): Promise<void> {
    if (items.length === 0) return;
    await this.remember(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
    for (const item of items)
      this.writeUnits += Math.max(1, Math.ceil(Buffer.byteLength(JSON.stringify(item, (_, v) => (v instanceof Set ? [...v] : v))) / 1024));
    await batchPut('main', items, { concurrency: WRITE_CONCURRENCY });
  }
}

/** Removes the import's state (ids, undo log) and its checkpoint: after it finished. */
export const forgetImport = async (home: ImportHome): Promise<void> => {
  for (const key of await listObjectKeys(home.bucket, prefixOf(home))) await deleteObject(home.bucket, key);
  await deleteCheckpoint(home);
};

/** Removes everything every run of the import wrote (items, then files), then its state and checkpoint. */
export const removeImport = async (home: ImportHome): Promise<void> => {
  for (const name of await listObjectKeys(home.bucket, `${prefixOf(home)}undo/`)) {
    const body = await getObjectBody(home.bucket, name);
    if (!body) continue;
    const entry = JSON.parse(body.toString('utf8')) as { keys: Key[]; files: string[] };
    for (let i = 0; i < entry.keys.length; i += 1000) await batchDelete('main', entry.keys.slice(i, i + 1000));
    for (const file of entry.files) await deleteFile(file);
  }
  await forgetImport(home);
};
