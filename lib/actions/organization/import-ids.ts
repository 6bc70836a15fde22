// An import's new ids and what carries old ones: users and channels get fresh ids from their
// counters, messages are numbered 1, 2, … in the order of their exported ids (message ids count
// per organization here), uploads get new path ids under the new organization. Content, rendered
// content and edit history name users, channels and uploads by id: they are rewritten here.
import type { EditHistoryEntry } from '../../models/message-edit';
import { newPathId, uploadUrl } from '../../models/attachment';
import { allocateIds } from '../../store/common';
import { getSystemBot } from '../../store/users';
import { ImportRefusedError } from './import-archive';
import type { ImportPlan } from './import-read';

export type IdMaps = {
  users: Map<number, number>;
  channels: Map<number, number>;
  messages: Map<number, number>;
  /** Old path id → new path id. */
  uploads: Map<string, string>;
  /** Old message id → the old path ids it links. */
  uploadsOfMessage: Map<number, string[]>;
};

const sequential = async (entity: string, oldIds: number[]): Promise<Map<number, number>> => {
  if (oldIds.length === 0) return new Map();
  const first = await allocateIds(entity, oldIds.length);
  return new Map([...oldIds].sort((a, b) => a - b).map((old, i) => [old, first + i]));
};

/** What follows from the export and the organization's id alone: message ids, which uploads each message links, their new path ids' organization. */
const derivedIds = (plan: ImportPlan): Pick<IdMaps, 'messages' | 'uploadsOfMessage'> => {
  const uploadsOfMessage = new Map<number, string[]>();
  for (const a of plan.attachments)
    for (const m of a.messages as number[]) uploadsOfMessage.set(m, [...(uploadsOfMessage.get(m) ?? []), String(a.path_id)]);
  return { messages: new Map(plan.messageIds.map((old, i) => [old, i + 1])), uploadsOfMessage };
};

/** The id maps a later run of an import reads back (import-state.ts): the allocated ones as saved, the rest derived again. */
export const rebuildImportIds = (
  plan: ImportPlan,
  saved: { users: [number, number][]; channels: [number, number][]; uploads: [string, string][] },
): IdMaps => ({
  users: new Map(saved.users),
  channels: new Map(saved.channels),
  uploads: new Map(saved.uploads),
  ...derivedIds(plan),
});

/**
 * Allocates the new ids of a checked export's users, channels, messages and uploads; the system
 * bots it names map to this server's (refused if one is not here: checked before anything is written).
 */
export const allocateImportIds = async (plan: ImportPlan, realmId: number): Promise<IdMaps> => {
  const uploads = new Map<string, string>();
  for (const a of plan.attachments) {
    const oldPath = String(a.path_id);
    uploads.set(oldPath, newPathId(realmId, oldPath.split('/').pop()!));
  }
  const users = await sequential(
    'user',
    plan.users.map((u) => Number(u.id)),
  );
  for (const [oldId, email] of plan.crossRealm) {
    const bot = await getSystemBot(email);
    if (!bot)
      throw new ImportRefusedError(`realm.json: zerver_userprofile_crossrealm record ${oldId}: ${email} is no system bot of this server.`);
    users.set(oldId, bot.id);
  }
  return {
    users,
    channels: await sequential(
      'channel',
      plan.channels.map((c) => Number(c.id)),
    ),
    uploads,
    ...derivedIds(plan),
  };
};

const swapIds = (text: string, pattern: RegExp, map: Map<number, number>): string =>
  text.replace(pattern, (whole, before: string, id: string) => {
    const mapped = map.get(Number(id));
    return mapped === undefined ? whole : `${before}${mapped}`;
  });

/** A message's content with its upload links moved to their new path ids. */
export const remapContent = (content: string, oldMessageId: number, ids: IdMaps): string => {
  let out = content;
  for (const oldPath of ids.uploadsOfMessage.get(oldMessageId) ?? []) {
    const newPath = ids.uploads.get(oldPath)!;
    out = out.split(uploadUrl(oldPath)).join(uploadUrl(newPath)).split(`/user_uploads/${oldPath}`).join(`/user_uploads/${newPath}`);
  }
  return out;
};

/** Rendered HTML with its mentions, channel links and upload links naming the new ids. */
export const remapRendered = (html: string, oldMessageId: number, ids: IdMaps): string => {
  let out = remapContent(html, oldMessageId, ids);
  out = swapIds(out, /(data-user-id=")(\d+)/g, ids.users);
  out = swapIds(out, /(data-stream-id=")(\d+)/g, ids.channels);
  out = swapIds(out, /(#narrow\/(?:channel|stream)\/)(\d+)/g, ids.channels);
  return out;
};

/** Edit history entries with their users and channels (and the rendered content they keep) renumbered. */
export const remapEditHistory = (entries: Record<string, unknown>[], oldMessageId: number, ids: IdMaps): EditHistoryEntry[] =>
  entries.map((e) => {
    const out = { ...e } as EditHistoryEntry;
    out.user_id = e.user_id === null || e.user_id === undefined ? null : (ids.users.get(Number(e.user_id)) ?? null);
    if (typeof e.prev_stream === 'number') out.prev_stream = ids.channels.get(e.prev_stream) ?? e.prev_stream;
    if (typeof e.stream === 'number') out.stream = ids.channels.get(e.stream) ?? e.stream;
    if (typeof e.prev_content === 'string') out.prev_content = remapContent(e.prev_content, oldMessageId, ids);
    if (typeof e.prev_rendered_content === 'string') out.prev_rendered_content = remapRendered(e.prev_rendered_content, oldMessageId, ids);
    return out;
  });
