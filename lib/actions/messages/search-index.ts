// Keeping the search index (lib/search) in step with the messages: the searchIndex function applies
// the main table's stream records of message items, and `npm run reindex` writes an organization's
// rows again from DynamoDB (the first deploy; an outage longer than the stream's 24 hours).
import type { Message } from '../../models/message';
import { applyStreamRecords, clearRealmRows, searchRowOf, writeSearchRows, type IndexStreamRecord } from '../../search/index-writes';
import * as channelsStore from '../../store/channels';
import { messagePartitions, queryPartitionPage, type MessagePartition } from '../../store/message-queries';
import { listDmConversationsOfUser } from '../../store/messages';
import * as usersStore from '../../store/users';

export type { IndexStreamRecord } from '../../search/index-writes';

/**
 * The searchIndex function: writes the rows of the messages a batch of stream records created,
 * edited, moved, reacted to or deleted (one statement per batch; records of other items are
 * skipped). Idempotent, so Lambda may retry a batch. Emits nothing.
 */
export const doIndexMessages = (records: IndexStreamRecord[]): Promise<number> => applyStreamRecords(records);

/** Every message of a partition, a page at a time, as stored (the channel and conversation indexes project whole items). */
const messagesOf = async function* (partition: MessagePartition): AsyncGenerator<Message[]> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryPartitionPage(partition, { direction: 'newer', from: 0, inclusive: true, limit: 500, cursor });
    yield page.items as unknown as Message[];
    cursor = page.cursor;
  } while (cursor);
};

/** The partitions that hold an organization's messages: each channel's, each direct-message conversation's once. */
const partitionsOfRealm = async (realmId: number): Promise<MessagePartition[]> => {
  const channels = await channelsStore.listChannelsOfRealm(realmId);
  const conversations = new Map<string, number[]>();
  for (const user of await usersStore.listOfRealm(realmId)) {
    for (const c of await listDmConversationsOfUser(user.id)) {
      const participants = [...new Set([user.id, ...c.userIds])].sort((a, b) => a - b);
      conversations.set(participants.join(','), participants);
    }
  }
  return [
    ...channels.map((c) => messagePartitions.channel(c.id)),
    ...[...conversations.values()].map((ids) => messagePartitions.dm(realmId, ids)),
  ];
};

/**
 * Rebuilds an organization's search rows from DynamoDB (an operator's command, `npm run
 * reindex`): removes its rows, then writes every stored message at version 0, so that a stream
 * record arriving meanwhile (always a newer version) is never replaced. Searches see the
 * organization's messages come back as it runs. Returns how many messages it wrote.
 */
export const doReindexRealm = async (realmId: number, progress: (written: number) => void = () => undefined): Promise<number> => {
  await clearRealmRows(realmId);
  let written = 0;
  for (const partition of await partitionsOfRealm(realmId)) {
    for await (const page of messagesOf(partition)) {
      await writeSearchRows(page.map((m) => searchRowOf(m, '0')));
      written += page.length;
      progress(written);
    }
  }
  return written;
};
