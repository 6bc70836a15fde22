// Windowed-list arithmetic: which rows of a long list to put in the DOM for a scroll position, and
// the space the rows left out take above and below, so thousands of messages make a few dozen rows;
// and the anchor that keeps a row in place on screen while rows are added or measured above it.

export type WindowRange = { start: number; end: number; before: number; after: number };

/** Prefix sums: offsets[i] is the top of row i, offsets[n] the whole height. */
export const offsetsOf = (heights: readonly number[]): number[] => {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i += 1) offsets[i + 1] = offsets[i]! + heights[i]!;
  return offsets;
};

/** The first row whose bottom is below `y`. */
const rowAt = (offsets: readonly number[], y: number): number => {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid + 1]! <= y) low = mid + 1;
    else high = mid;
  }
  return Math.max(0, low);
};

/**
 * The rows to render for a viewport at `scrollTop` of height `viewport`, with `overscan` pixels
 * of rows beyond each edge so that a scroll shows rows already drawn.
 */
export const windowRange = (heights: readonly number[], scrollTop: number, viewport: number, overscan: number): WindowRange =>
  windowOfOffsets(offsetsOf(heights), scrollTop, viewport, overscan);

/** windowRange from prefix sums already computed (offsetsOf). */
export const windowOfOffsets = (offsets: readonly number[], scrollTop: number, viewport: number, overscan: number): WindowRange => {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0, before: 0, after: 0 };
  const start = rowAt(offsets, Math.max(0, scrollTop - overscan));
  const end = Math.min(n, rowAt(offsets, scrollTop + viewport + overscan) + 1);
  return { start, end, before: offsets[start]!, after: offsets[n]! - offsets[end]! };
};

/** A row and where its top is relative to the viewport's top (negative: scrolled partly out). */
export type ScrollAnchor<K> = { key: K; offset: number };

/** The anchor for a list scrolled to `scrollTop`: the row at the viewport's top edge. */
export const anchorAt = <K>(offsets: readonly number[], keys: readonly K[], scrollTop: number): ScrollAnchor<K> | null => {
  if (keys.length === 0) return null;
  const index = rowAt(offsets, Math.max(0, scrollTop));
  return { key: keys[index]!, offset: offsets[index]! - scrollTop };
};

/** The scrollTop that puts an anchor's row back where it was (undefined: the row is gone). */
export const scrollTopFor = <K>(offsets: readonly number[], index: number, anchor: ScrollAnchor<K>): number | undefined =>
  index < 0 || index >= offsets.length - 1 ? undefined : Math.max(0, offsets[index]! - anchor.offset);
