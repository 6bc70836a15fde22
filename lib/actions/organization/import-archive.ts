// Unpacking an export archive (a gzipped tar, upstream's layout: one folder holding realm.json,
// messages-*.json, attachment.json, uploads/ …) for an import: streamed from its source to a
// temporary folder on disk, member by member, so that an archive of any size never sits in memory
// whole. A hostile archive is refused as soon as its header shows it: a member outside its folder
// (an absolute path, `..`, a second top folder), a link or device, a member or a total past the caps.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { config } from '../../config';

/** A refusal of an archive: its message says what is wrong with it; nothing was written. */
export class ImportRefusedError extends Error {}

/** What an import accepts of an archive. */
export type ArchiveLimits = { memberBytes: number; totalBytes: number; members: number };

/** The largest upload is upstream's default MAX_FILE_UPLOAD_SIZE many times over; a whole archive fits a Lambda's largest /tmp. */
export const ARCHIVE_LIMITS: ArchiveLimits = { memberBytes: 1024 ** 3, totalBytes: 8 * 1024 ** 3, members: 2_000_000 };

const GIB = 1024 ** 3;
const sizeText = (bytes: number): string => (bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${bytes} bytes`);

/** The member's path inside the archive's folder, or a refusal of a name that leaves it. */
const memberPath = (name: string): { folder: string; rest: string } => {
  const refuse = () => new ImportRefusedError(`Refusing the archive: member ${JSON.stringify(name)} is outside the export's folder.`);
  if (name.startsWith('/') || name.includes('\\') || name.includes('\0')) throw refuse();
  const parts = name.split('/').filter((p, i, all) => p !== '' && !(p === '.' && i > 0) && !(i === all.length - 1 && p === ''));
  if (parts.some((p) => p === '..' || p === '.')) throw refuse();
  const [folder, ...rest] = parts;
  if (folder === undefined) throw refuse();
  return { folder, rest: rest.join('/') };
};

/**
 * Unpacks `source` into a new temporary folder and returns the export's folder there (the caller
 * removes `root` when done; a refusal removes it here). Refuses (ImportRefusedError) a stream that
 * is not a gzipped tar, a member outside the one top folder, a link or other special member, a
 * member past `limits.memberBytes` (read from its header: its body is never read), and an archive
 * past `limits.totalBytes` or `limits.members`.
 */
export const unpackArchive = async (
  source: Readable,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<{ root: string; folder: string }> => {
  const root = await mkdtemp(join(config.importWorkDir(), 'chat-import-'));
  const tar = extract();
  const gunzip = createGunzip();
  const feeding = pipeline(source, gunzip, tar).catch((error: Error) => error);
  let topFolder: string | undefined;
  let total = 0;
  let members = 0;
  try {
    for await (const entry of tar) {
      const { name, type, size = 0 } = entry.header;
      const { folder, rest } = memberPath(name);
      if (topFolder === undefined) topFolder = folder;
      else if (folder !== topFolder)
        throw new ImportRefusedError(`Refusing the archive: it holds more than one folder (${topFolder}, ${folder}).`);
      if (++members > limits.members) throw new ImportRefusedError(`Refusing the archive: more than ${limits.members} members.`);
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file') throw new ImportRefusedError(`Refusing the archive: member ${name} is a ${type}, not a file.`);
      if (size > limits.memberBytes)
        throw new ImportRefusedError(
          `Refusing the archive: member ${name} is ${sizeText(size)}, past the limit of ${sizeText(limits.memberBytes)} for one file.`,
        );
      total += size;
      if (total > limits.totalBytes)
        throw new ImportRefusedError(`Refusing the archive: its files pass the limit of ${sizeText(limits.totalBytes)} in all.`);
      if (rest === '') throw new ImportRefusedError(`Refusing the archive: member ${name} is a file outside the export's folder.`);
      const target = join(root, folder, rest);
      await mkdir(dirname(target), { recursive: true });
      await pipeline(entry, createWriteStream(target));
    }
    const failed = await feeding;
    if (failed) throw failed;
  } catch (error) {
    source.destroy();
    tar.destroy();
    await rm(root, { recursive: true, force: true });
    if (error instanceof ImportRefusedError) throw error;
    throw new ImportRefusedError(`Refusing the archive: it is not a readable .tar.gz file (${(error as Error).message}).`);
  }
  if (topFolder === undefined) {
    await rm(root, { recursive: true, force: true });
    throw new ImportRefusedError('Refusing the archive: it is empty.');
  }
  return { root, folder: join(root, topFolder) };
};
