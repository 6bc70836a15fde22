// What a message fetch keeps of what it read: the narrow's facts of a message (or of the viewer's
// row of it), and the messages that match the narrow and that the viewer may see, with the viewer's
// flags. Shared by the partition reads (fetch.ts) and the search index's (search.ts).
import type { MessageViewer } from '../../access/messages';
import type { Message } from '../../models/message';
import { HISTORICAL_FLAGS } from '../../models/message-object';
import { matchesNarrow, type MessageFacts, type ResolvedNarrow } from '../../models/narrow';
import type { Item } from '../../store/common';
import { getUserMessagesByIds } from '../../store/messages';

/** A message the viewer may see, with the viewer's flags (historical ones without a row). */
export type VisibleMessage = { message: Message; flags: string[]; received: boolean };

/** A message's facts; `searchHits` are the ids the search index matched (a `search` term holds only for them). */
export const factsOf = (m: Message, flags: string[], searchHits?: Set<number>): MessageFacts => ({
  id: m.id,
  senderId: m.senderId,
  streamId: m.streamId,
  topic: m.topic,
  dmUserIds: m.dmUserIds,
  flags,
  details: {
    content: m.content,
    hasLink: m.hasLink === true,
    hasImage: m.hasImage === true,
    hasAttachment: m.hasAttachment === true,
    hasReaction: Object.keys(m.reactions ?? {}).length > 0,
    searchHit: searchHits?.has(m.id) === true,
  },
});

/** A row's facts, for matching before the message items are read. */
export const rowFacts = (row: Item): MessageFacts => ({
  id: Number(row.messageId),
  senderId: Number(row.senderId),
  streamId: row.streamId === null || row.streamId === undefined ? null : Number(row.streamId),
  topic: String(row.topic ?? ''),
  dmUserIds: ((row.dmUserIds as number[] | undefined) ?? []).map(Number),
  flags: (row.flags as string[] | undefined) ?? [],
});

/**
 * Messages with the viewer's flags, kept when they match the narrow and the viewer may see them;
 * with `receivedOnly`, only those the viewer has a row of (upstream's personal history).
 */
export const withViewerFlags = async (
  viewer: MessageViewer,
  narrow: ResolvedNarrow,
  messages: Message[],
  opts: { searchHits?: Set<number>; receivedOnly?: boolean } = {},
): Promise<VisibleMessage[]> => {
  const rows = new Map(
    (
      await getUserMessagesByIds(
        viewer.user.id,
        messages.map((m) => m.id),
      )
    ).map((r) => [r.messageId, r]),
  );
  const out: VisibleMessage[] = [];
  for (const message of messages) {
    const row = rows.get(message.id);
    if (opts.receivedOnly && !row) continue;
    const flags = row?.flags ?? HISTORICAL_FLAGS;
    if (!matchesNarrow(narrow, factsOf(message, flags, opts.searchHits))) continue;
    if (await viewer.canSee(message, row !== undefined)) out.push({ message, flags, received: row !== undefined });
  }
  return out;
};
