// What a search asks of the index: the ids of matching messages in a scope, a page at a time in
// id order from an anchor; which of some ids match; and upstream's highlight markup of the
// matches. The index only narrows: every id it returns is read from DynamoDB and checked again
// (the other narrow terms, the viewer's access) by lib/actions/messages/fetch.ts.
import type { SearchText } from '../models/narrow';
import type { SearchFilters, SearchScope } from '../models/search-narrow';
import { runSql, type SqlValue } from './client';
import { HEADLINES, searchCondition, TS_START, TS_STOP } from './sql';

/** Django's prep_for_like_query: the phrase as a substring pattern, its wildcards taken literally. */
const likePattern = (phrase: string): string => `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const scopeCondition = (scope: SearchScope, params: Record<string, SqlValue>): string => {
  switch (scope.kind) {
    case 'received': {
      params.scopeChannels = scope.channelIds;
      params.scopeUser = scope.userId;
      const inChannels = 'channel_id = ANY(ARRAY(SELECT json_array_elements_text(:scopeChannels::json)::integer))';
      return scope.dms ? `(${inChannels} OR (channel_id IS NULL AND dm_user_ids @> ARRAY[:scopeUser::integer]))` : inChannels;
    }
    case 'channels':
      params.scopeChannels = scope.channelIds;
      return 'channel_id = ANY(ARRAY(SELECT json_array_elements_text(:scopeChannels::json)::integer))';
    case 'dm':
      params.scopeDm = scope.userIds;
      return 'channel_id IS NULL AND dm_user_ids = ARRAY(SELECT json_array_elements_text(:scopeDm::json)::integer)';
  }
};

const filterConditions = (filters: SearchFilters, params: Record<string, SqlValue>): string[] => {
  const out: string[] = [];
  if (filters.senderId) {
    params.sender = filters.senderId.id;
    out.push(filters.senderId.negated ? 'sender_id <> :sender' : 'sender_id = :sender');
  }
  if (filters.channelId) {
    params.channel = filters.channelId.id;
    out.push(filters.channelId.negated ? 'channel_id IS DISTINCT FROM :channel' : 'channel_id = :channel');
  }
  if (filters.isDm !== undefined) out.push(filters.isDm ? 'channel_id IS NULL' : 'channel_id IS NOT NULL');
  for (const has of filters.has ?? []) out.push(has.negated ? `NOT ${has.column}` : has.column);
  if (filters.messageId !== undefined) {
    params.messageId = filters.messageId;
    out.push('id = :messageId');
  }
  return out;
};

const textParams = (realmId: number, text: SearchText): Record<string, SqlValue> => {
  const params: Record<string, SqlValue> = { realm: realmId, query: text.query };
  text.phrases.forEach((phrase, i) => (params[`phrase${i}`] = likePattern(phrase)));
  return params;
};

/**
 * Up to `limit` ids of matching messages on one side of `from` (older: newest first; newer:
 * oldest first), in the scope and the filters.
 */
export const searchMessageIds = async (
  realmId: number,
  text: SearchText,
  scope: SearchScope,
  filters: SearchFilters,
  side: { direction: 'older' | 'newer'; from: number; inclusive: boolean; limit: number },
): Promise<number[]> => {
  const params = { ...textParams(realmId, text), from: side.from, limit: side.limit };
  const bound =
    side.direction === 'older' ? (side.inclusive ? 'id <= :from' : 'id < :from') : side.inclusive ? 'id >= :from' : 'id > :from';
  const where = [searchCondition(text.phrases.length), scopeCondition(scope, params), ...filterConditions(filters, params), bound];
  const rows = await runSql<{ id: number }>(
    `SELECT id FROM {schema}.messages WHERE ${where.join(' AND ')} ORDER BY id ${side.direction === 'older' ? 'DESC' : 'ASC'} LIMIT :limit`,
    params,
  );
  return rows.map((r) => Number(r.id));
};

/** Which of these message ids the search matches (a listed fetch, the first unread of a search). */
export const matchingMessageIds = async (realmId: number, text: SearchText, ids: number[]): Promise<Set<number>> => {
  if (ids.length === 0) return new Set();
  const params = { ...textParams(realmId, text), ids };
  const rows = await runSql<{ id: number }>(
    `SELECT id FROM {schema}.messages WHERE ${searchCondition(text.phrases.length)}
      AND id = ANY(ARRAY(SELECT json_array_elements_text(:ids::json)::bigint))`,
    params,
  );
  return new Set(rows.map((r) => Number(r.id)));
};

/**
 * Upstream's highlight_string over ts_headline's marked text: each match wrapped in
 * `<span class="highlight">`, except where the text before it leaves an HTML tag open.
 */
const highlightMarked = (marked: string): string => {
  const parts = marked.split(TS_START);
  let out = parts[0];
  let inTag = false;
  const track = (text: string) => {
    for (const c of text) {
      if (c === '<') inTag = true;
      else if (c === '>') inTag = false;
    }
  };
  track(parts[0]);
  for (const part of parts.slice(1)) {
    const end = part.indexOf(TS_STOP);
    const [match, rest] = [part.slice(0, end), part.slice(end + TS_STOP.length)];
    track(match);
    out += inTag ? match : `<span class="highlight">${match}</span>`;
    track(rest);
    out += rest;
  }
  return out;
};

/**
 * Upstream's match_content and match_subject of each message: its rendered HTML and its
 * HTML-escaped topic with the search's matches highlighted (one statement for all of them).
 */
export const highlightMatches = async (
  query: string,
  messages: { rendered: string; escapedTopic: string }[],
): Promise<{ match_content: string; match_subject: string }[]> => {
  if (messages.length === 0) return [];
  const texts = messages.flatMap((m) => [m.rendered, m.escapedTopic]);
  const rows = await runSql<{ i: number; h: string }>(HEADLINES, { query, texts });
  const marked = new Map(rows.map((r) => [Number(r.i), r.h]));
  return messages.map((m, k) => ({
    match_content: highlightMarked(marked.get(2 * k + 1) ?? m.rendered),
    match_subject: highlightMarked(marked.get(2 * k + 2) ?? m.escapedTopic),
  }));
};
