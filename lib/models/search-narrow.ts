// Where a narrow with a `search` term looks in the search index (lib/search), decided as upstream
// decides which messages a narrow may include (zerver/lib/narrow.py ok_to_include_history): only
// what the viewer received, unless the narrow names a channel whose whole history the viewer may
// read. The index only narrows; lib/actions/messages/fetch.ts checks every message it returns.
import { searchOf, type ResolvedNarrow, type SearchText } from './narrow';

/**
 * Where a search may look:
 * - `received`: these channels (every channel the viewer ever had a subscription to, or the one
 *   the narrow names) and, with `dms`, the viewer's direct messages; only messages the viewer has
 *   a row of are kept;
 * - `channels`: these channels' whole history;
 * - `dm`: one direct-message conversation (its sorted participants).
 */
export type SearchScope =
  | { kind: 'received'; userId: number; channelIds: number[]; dms: boolean }
  | { kind: 'channels'; channelIds: number[] }
  | { kind: 'dm'; userIds: number[] };

/** Conditions the narrow's other terms add to the index's query, to narrow it further (each is checked again on the message). */
export type SearchFilters = {
  senderId?: { id: number; negated: boolean };
  channelId?: { id: number; negated: boolean };
  isDm?: boolean;
  has?: { column: 'has_link' | 'has_image' | 'has_attachment' | 'has_reaction'; negated: boolean }[];
  messageId?: number;
};

/** A search narrow's source: the text, the scope (null: nothing can match), and whether only received messages count. */
export type SearchSource = { kind: 'search'; text: SearchText; scope: SearchScope | null; receivedOnly: boolean; filters: SearchFilters };

const filtersOf = (narrow: ResolvedNarrow): SearchFilters => {
  const filters: SearchFilters = { has: [] };
  for (const term of narrow) {
    if (term.operator === 'sender' && !filters.senderId) filters.senderId = { id: term.userId, negated: term.negated };
    if (term.operator === 'channel' && term.negated && !filters.channelId) filters.channelId = { id: term.channelId, negated: true };
    if (term.operator === 'is' && term.operand === 'dm') filters.isDm = !term.negated;
    if (term.operator === 'has') filters.has!.push({ column: `has_${term.operand}`, negated: term.negated });
    if (term.operator === 'id' && !term.negated) filters.messageId = term.messageId;
  }
  return filters;
};

/**
 * The search source of a narrow, or undefined without a `search` term. `fullHistory(channelId)`
 * says whether the viewer may read a channel's whole history; `subscribedChannelIds` are the
 * channels the viewer ever subscribed to (what they may have received). Any `is:` term but
 * `is:resolved` reads only received messages, as upstream turns history off for them.
 */
export const searchSource = (
  narrow: ResolvedNarrow,
  fullHistory: (channelId: number) => boolean,
  viewer: { id: number; guest: boolean; subscribedChannelIds: number[] },
): SearchSource | undefined => {
  const text = searchOf(narrow);
  if (!text) return undefined;
  const plain = narrow.filter((t) => !t.negated);
  const personal = narrow.some((t) => t.operator === 'is' && t.operand !== 'resolved');
  const base = { kind: 'search' as const, text, filters: filtersOf(narrow) };
  const dm = plain.find((t) => t.operator === 'dm');
  if (dm?.operator === 'dm')
    return { ...base, scope: dm.userIds === null ? null : { kind: 'dm', userIds: dm.userIds }, receivedOnly: true };
  const channel = plain.find((t) => t.operator === 'channel');
  if (channel?.operator === 'channel') {
    if (!personal && fullHistory(channel.channelId))
      return { ...base, scope: { kind: 'channels', channelIds: [channel.channelId] }, receivedOnly: false };
    return { ...base, scope: { kind: 'received', userId: viewer.id, channelIds: [channel.channelId], dms: false }, receivedOnly: true };
  }
  const channels = plain.find((t) => t.operator === 'channels');
  if (channels?.operator === 'channels' && !personal && !viewer.guest)
    return { ...base, scope: { kind: 'channels', channelIds: channels.channelIds }, receivedOnly: false };
  const dmsOnly = base.filters.isDm === true || plain.some((t) => t.operator === 'dm-including');
  const channelsOnly = base.filters.isDm === false;
  return {
    ...base,
    scope: { kind: 'received', userId: viewer.id, channelIds: dmsOnly ? [] : viewer.subscribedChannelIds, dms: !channelsOnly },
    receivedOnly: true,
  };
};
