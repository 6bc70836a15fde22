// The index follows the messages: the main table's stream records of message items (new, edited,
// moved, reacted to, deleted) become the search rows of those messages, written in one statement
// per batch, each versioned by its record's sequence number so that a retried or out-of-order
// record never replaces a newer version; and a reindex writes an organization's rows again.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { runSql } from './client';
import { DELETE_REALM_ROWS, UPSERT_ROWS, type SearchRow } from './sql';

/** A record of the main table's stream, as Lambda passes it (only what indexing reads). */
export type IndexStreamRecord = {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, AttributeValue>; NewImage?: Record<string, AttributeValue>; SequenceNumber?: string };
};

/** What a search row is made of: a stored message's fields (lib/models/message.ts Message), as read. */
export type IndexedMessage = {
  realmId: number;
  id: number;
  senderId: number;
  streamId: number | null;
  dmUserIds: number[];
  topic: string;
  content: string;
  renderedContent?: string;
  hasLink?: boolean;
  hasImage?: boolean;
  hasAttachment?: boolean;
  reactions?: Record<string, unknown>;
};

const MESSAGE_KEY = /^MSG#(\d+)#(\d+)$/;

/** The organization and id of a message item's key, or undefined for any other item. */
const messageKeyOf = (keys: Record<string, AttributeValue> | undefined): { realmId: number; id: number } | undefined => {
  const match = keys?.sk?.S === 'MSG' ? MESSAGE_KEY.exec(keys.pk?.S ?? '') : null;
  return match ? { realmId: Number(match[1]), id: Number(match[2]) } : undefined;
};

/** A message's search row at a version. */
export const searchRowOf = (m: IndexedMessage, version: string): SearchRow => ({
  realm_id: m.realmId,
  id: m.id,
  version,
  deleted: false,
  channel_id: m.streamId,
  dm_user_ids: m.streamId === null ? [...m.dmUserIds].sort((a, b) => a - b) : [],
  sender_id: m.senderId,
  topic: m.topic,
  content: m.content,
  rendered: m.renderedContent ?? '',
  has_link: m.hasLink === true,
  has_image: m.hasImage === true,
  has_attachment: m.hasAttachment === true,
  has_reaction: Object.keys(m.reactions ?? {}).length > 0,
});

/** The indexed fields of a message item's stream image (only those: the item's other values may be in any shape). */
const INDEXED_FIELDS = ['senderId', 'streamId', 'dmUserIds', 'topic', 'content', 'renderedContent', 'hasLink', 'hasImage', 'hasAttachment'];

const messageOfImage = (image: Record<string, AttributeValue>): Omit<IndexedMessage, 'realmId' | 'id'> => {
  const picked = Object.fromEntries(INDEXED_FIELDS.filter((f) => image[f] !== undefined).map((f) => [f, image[f]]));
  const m = unmarshall(picked) as Partial<IndexedMessage>;
  return {
    senderId: Number(m.senderId ?? 0),
    streamId: m.streamId === undefined || m.streamId === null ? null : Number(m.streamId),
    dmUserIds: [...((m.dmUserIds as Iterable<number> | undefined) ?? [])].map(Number),
    topic: m.topic ?? '',
    content: m.content ?? '',
    renderedContent: m.renderedContent,
    hasLink: m.hasLink,
    hasImage: m.hasImage,
    hasAttachment: m.hasAttachment,
    reactions: Object.fromEntries(Object.keys(image.reactions?.M ?? {}).map((k) => [k, true])),
  };
};

const deletedRow = (key: { realmId: number; id: number }, version: string): SearchRow => ({
  ...searchRowOf({ ...key, senderId: 0, streamId: null, dmUserIds: [], topic: '', content: '' }, version),
  deleted: true,
});

/** Rows per statement: a stream batch is at most 100 records; a reindex writes in pages of this. */
const ROWS_PER_STATEMENT = 200;

/** Writes rows (at most one per message) in statements of ROWS_PER_STATEMENT. */
export const writeSearchRows = async (rows: SearchRow[]): Promise<void> => {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) await runSql(UPSERT_ROWS, { rows: rows.slice(i, i + ROWS_PER_STATEMENT) });
};

/**
 * Applies a batch of the main table's stream records to the index: each message's newest record
 * in the batch becomes its row (a removed item a deleted row); records of other items are
 * skipped. Idempotent: replaying any of the records changes nothing.
 */
export const applyStreamRecords = async (records: IndexStreamRecord[]): Promise<number> => {
  const newest = new Map<string, SearchRow>();
  for (const record of records) {
    const key = messageKeyOf(record.dynamodb?.Keys);
    const version = record.dynamodb?.SequenceNumber;
    if (!key || version === undefined || !/^\d+$/.test(version)) continue;
    const image = record.dynamodb?.NewImage;
    const row =
      record.eventName === 'REMOVE' || !image ? deletedRow(key, version) : searchRowOf({ ...messageOfImage(image), ...key }, version);
    const id = `${key.realmId}#${key.id}`;
    const known = newest.get(id);
    if (!known || BigInt(known.version) <= BigInt(version)) newest.set(id, row);
  }
  await writeSearchRows([...newest.values()]);
  return newest.size;
};

/** Removes an organization's rows, before a reindex writes them again from DynamoDB. */
export const clearRealmRows = async (realmId: number): Promise<void> => {
  await runSql(DELETE_REALM_ROWS, { realm: realmId });
};
