// Windowed-list arithmetic: which rows of a long list to put in the DOM for a scroll position, and
// the space the rows left out take above and below, so thousands of messages make a few dozen rows.

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
export const windowRange = (heights: readonly number[], scrollTop: number, viewport: number, overscan: number): WindowRange => {
  const n = heights.length;
  if (n === 0) return { start: 0, end: 0, before: 0, after: 0 };
  const offsets = offsetsOf(heights);
  const start = rowAt(offsets, Math.max(0, scrollTop - overscan));
  const end = Math.min(n, rowAt(offsets, scrollTop + viewport + overscan) + 1);
  return { start, end, before: offsets[start]!, after: offsets[n]! - offsets[end]! };
};
