// A `search` narrow's messages, read through the search index (lib/search): pages of matching ids
// in id order from the anchor, each page read from DynamoDB and kept only where the rest of the
// narrow matches and the viewer may see the message (only what they received, unless the narrow
// names a channel whose history they may read); and upstream's highlights of what it found.
// Upstream: zerver/lib/narrow.py (_by_search_tsearch), zerver/views/message_fetch.py (highlight_string).
import type { MessageViewer } from '../../access/messages';
import { escapeHtml } from '../../models/html';
import type { Message } from '../../models/message';
import { searchOf, type ResolvedNarrow, type SearchText } from '../../models/narrow';
import type { SearchSource } from '../../models/search-narrow';
import { highlightMatches, matchingMessageIds, searchMessageIds } from '../../search/query';
import { getMessagesByIds } from '../../store/messages';
import { withViewerFlags, type VisibleMessage } from './visible';

/** Ids asked of the index per page: what is still wanted, doubled (the access checks drop some), within bounds. */
const searchPage = (wanted: number): number => Math.min(Math.max(2 * wanted, 50), 500);

/**
 * Up to `want` visible messages of a search narrow on one side of `from` (older: newest first;
 * newer: oldest first). The index's answer is complete, so the side ends only where the index
 * has no more matches: found_oldest and found_newest are exact.
 */
export const readSearchSide = async (
  viewer: MessageViewer,
  narrow: ResolvedNarrow,
  source: SearchSource,
  side: { direction: 'older' | 'newer'; from: number; inclusive: boolean; want: number },
): Promise<VisibleMessage[]> => {
  const { scope } = source;
  if (side.want <= 0 || scope === null) return [];
  const found: VisibleMessage[] = [];
  let { from, inclusive } = side;
  for (;;) {
    const limit = searchPage(side.want - found.length);
    const ids = await searchMessageIds(viewer.user.realmId, source.text, scope, source.filters, { ...side, from, inclusive, limit });
    const messages = await getMessagesByIds(viewer.user.realmId, ids);
    found.push(...(await withViewerFlags(viewer, narrow, messages, { searchHits: new Set(ids), receivedOnly: source.receivedOnly })));
    if (ids.length < limit || found.length >= side.want) break;
    [from, inclusive] = [ids.at(-1)!, false];
  }
  const order = side.direction === 'older' ? (a: number, b: number) => b - a : (a: number, b: number) => a - b;
  return found.sort((a, b) => order(a.message.id, b.message.id)).slice(0, side.want);
};

/** The ids among `ids` that the narrow's search matches, or undefined when it has none (every id passes that term). */
export const searchHitsAmong = async (realmId: number, narrow: ResolvedNarrow, ids: number[]): Promise<Set<number> | undefined> => {
  const text = searchOf(narrow);
  return text ? matchingMessageIds(realmId, text, ids) : undefined;
};

/** Upstream's match_content and match_subject of each message (in order). */
export const searchHighlights = (text: SearchText, messages: Message[]): Promise<{ match_content: string; match_subject: string }[]> =>
  highlightMatches(
    text.query,
    messages.map((m) => ({ rendered: m.renderedContent ?? '', escapedTopic: escapeHtml(m.topic) })),
  );
