// Reads an export archive (a gzipped tar) back: every member by its name inside the archive's folder.
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';

export type ArchiveMembers = { folder: string; files: Map<string, Buffer> };

export const readArchive = async (archive: Buffer): Promise<ArchiveMembers> => {
  const files = new Map<string, Buffer>();
  const folders = new Set<string>();
  const tar = extract();
  Readable.from(archive).pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const [folder, ...rest] = entry.header.name.split('/');
    folders.add(folder!);
    files.set(rest.join('/'), Buffer.concat(chunks));
  }
  if (folders.size !== 1) throw new Error(`an archive has one folder, this one ${[...folders].join(', ')}`);
  return { folder: [...folders][0]!, files };
};

/** A JSON member of the archive, parsed. */
export const jsonMember = (archive: ArchiveMembers, name: string): any => {
  const body = archive.files.get(name);
  if (!body) throw new Error(`the archive has no ${name}`);
  return JSON.parse(body.toString('utf8'));
};
