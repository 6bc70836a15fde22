// The range of a message fetch around an anchor (upstream: parse_anchor_value,
// limit_query_to_range and post_process_limited_query in zerver/lib/narrow.py), kept pure so that
// GET /messages and POST /messages/flags/narrow share it and tests can check its edge cases.
import { BadRequestError } from '../errors';

/** Upstream's LARGER_THAN_MAX_MESSAGE_ID: "newest", and first_unread with nothing unread. */
export const NEWEST_ANCHOR = 10000000000000000;
/** Upstream's MAX_MESSAGES_PER_FETCH and MAX_MESSAGES_PER_UPDATE. */
export const MAX_MESSAGES_PER_FETCH = 5000;

/** A parsed anchor: an id (clamped to [0, NEWEST_ANCHOR]) or the first unread message of the narrow. */
export type Anchor = number | 'first_unread';

/**
 * Upstream's parse_anchor_value: "oldest" is 0, "newest" NEWEST_ANCHOR, "first_unread" is resolved
 * later, an integer string (negative allowed) is clamped; anything else is "Invalid anchor".
 */
export const parseAnchor = (raw: string): Anchor => {
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return NEWEST_ANCHOR;
  if (raw === 'first_unread') return 'first_unread';
  if (!/^\s*[+-]?[0-9]+\s*$/.test(raw)) throw new BadRequestError('Invalid anchor');
  const value = Number(raw.trim());
  return Math.min(Math.max(value, 0), NEWEST_ANCHOR);
};

/** What to read around a resolved anchor. */
export type RangePlan = {
  anchor: number;
  /** Messages with id < anchor to read, newest first (0: no read). */
  before: number;
  /** Whether the anchor message itself is wanted. */
  includeAnchor: boolean;
  /** Messages with id > anchor to read, oldest first (0: no read). */
  after: number;
  anchoredToLeft: boolean;
  anchoredToRight: boolean;
};

/** The reads for an anchor: none to the left of "oldest", none to the right of "newest". */
export const planRange = (anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean): RangePlan => {
  const anchoredToLeft = anchor === 0;
  const anchoredToRight = anchor >= NEWEST_ANCHOR;
  return {
    anchor,
    before: anchoredToLeft ? 0 : numBefore,
    includeAnchor: includeAnchor && !anchoredToRight && !anchoredToLeft,
    after: anchoredToRight ? 0 : numAfter,
    anchoredToLeft,
    anchoredToRight,
  };
};

/** The result of a range: ids ascending and upstream's found_* flags. */
export type RangeResult<T> = { messages: T[]; foundAnchor: boolean; foundOldest: boolean; foundNewest: boolean };

/**
 * Upstream's post_process_limited_query: `before` (newest first, at most plan.before), the anchor
 * message if it matched, `after` (oldest first, at most plan.after). found_oldest when fewer than
 * num_before older messages exist (or anchored left), found_newest likewise to the right.
 */
export const assembleRange = <T>(
  plan: RangePlan,
  numBefore: number,
  numAfter: number,
  parts: { before: T[]; anchor: T | undefined; after: T[] },
): RangeResult<T> => {
  const before = parts.before.slice(0, numBefore).reverse();
  const after = parts.after.slice(0, plan.after);
  return {
    messages: [...before, ...(parts.anchor ? [parts.anchor] : []), ...after],
    foundAnchor: parts.anchor !== undefined,
    foundOldest: plan.anchoredToLeft || parts.before.length < numBefore,
    foundNewest: plan.anchoredToRight || after.length < numAfter,
  };
};

/**
 * Upstream's order of checks on the counts: the 5,000 maximum, then an excluded anchor inside the
 * range.
 */
export const checkRangeCounts = (numBefore: number, numAfter: number, includeAnchor: boolean): void => {
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH)
    throw new BadRequestError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  checkAnchorExclusion(numBefore, numAfter, includeAnchor);
};

/** The anchor may be left out only at an end of the range. */
export const checkAnchorExclusion = (numBefore: number, numAfter: number, includeAnchor: boolean): void => {
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw new BadRequestError('The anchor can only be excluded at an end of the range');
};
