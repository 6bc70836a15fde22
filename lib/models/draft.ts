/** The recipient kind of a draft: unaddressed (""), a channel, or direct messages. */
export type DraftType = '' | 'stream' | 'private';

/**
 * A server-side draft, in its owner's partition. `to` is already normalized: `[channel id]` for a
 * channel draft, the other participants (or `[owner]` for a self-DM) for a direct-message draft,
 * `[]` for an unaddressed one. `timestamp` is the last edit time in seconds, possibly fractional.
 */
export type Draft = {
  id: number;
  userId: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
};

/** The wire form (register `drafts`, GET /drafts, drafts events): the timestamp in whole seconds. */
export type ApiDraft = { id: number; type: DraftType; to: number[]; topic: string; content: string; timestamp: number };

export const toApiDraft = (d: Draft): ApiDraft => ({
  id: d.id,
  type: d.type,
  to: d.to,
  topic: d.topic,
  content: d.content,
  timestamp: Math.trunc(d.timestamp),
});

/** Oldest edit first, then by id: GET /drafts. */
export const byEditTime = (a: Draft, b: Draft): number => a.timestamp - b.timestamp || a.id - b.id;
