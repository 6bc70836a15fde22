// lib/models/message-range.ts: anchors and the found_* flags of a fetch, as upstream computes them.
import { assembleRange, checkRangeCounts, NEWEST_ANCHOR, parseAnchor, planRange } from '../../../lib/models/message-range';

describe('parseAnchor', () => {
  it.each([
    ['oldest', 0],
    ['newest', NEWEST_ANCHOR],
    ['first_unread', 'first_unread'],
    ['42', 42],
    ['-5', 0],
    ['99999999999999999999', NEWEST_ANCHOR],
  ])('reads %s as %s', (raw, anchor) => {
    expect(parseAnchor(raw)).toBe(anchor);
  });

  it.each(['', 'abc', '1.5', 'newest '])('refuses %j with "Invalid anchor"', (raw) => {
    expect(() => parseAnchor(raw)).toThrow('Invalid anchor');
  });
});

describe('planRange and assembleRange', () => {
  it('returns the older messages, the anchor and the newer ones in id order', () => {
    const plan = planRange(5, 2, 2, true);
    expect(assembleRange(plan, 2, 2, { before: [4, 3], anchor: 5, after: [6, 7] })).toEqual({
      messages: [3, 4, 5, 6, 7],
      foundAnchor: true,
      foundOldest: false,
      foundNewest: false,
    });
  });

  it('says found_oldest and found_newest when fewer messages exist than were asked for', () => {
    const plan = planRange(5, 3, 3, true);
    expect(assembleRange(plan, 3, 3, { before: [4], anchor: undefined, after: [6] })).toEqual({
      messages: [4, 6],
      foundAnchor: false,
      foundOldest: true,
      foundNewest: true,
    });
  });

  it('is anchored to the right for newest: no newer read, found_newest, the anchor not wanted', () => {
    const plan = planRange(NEWEST_ANCHOR, 2, 5, true);
    expect(plan).toMatchObject({ after: 0, includeAnchor: false, anchoredToRight: true });
    expect(assembleRange(plan, 2, 5, { before: [9, 8], anchor: undefined, after: [] })).toMatchObject({
      foundNewest: true,
      foundOldest: false,
    });
  });

  it('is anchored to the left for oldest: no older read and found_oldest', () => {
    const plan = planRange(0, 3, 2, true);
    expect(plan).toMatchObject({ before: 0, anchoredToLeft: true });
    expect(assembleRange(plan, 3, 2, { before: [], anchor: undefined, after: [1, 2] })).toMatchObject({
      foundOldest: true,
      foundNewest: false,
    });
  });
});

describe('checkRangeCounts', () => {
  it('refuses more than 5000 messages', () => {
    expect(() => checkRangeCounts(2500, 2501, true)).toThrow('Too many messages requested (maximum 5000).');
  });

  it('refuses an excluded anchor inside the range but not at an end', () => {
    expect(() => checkRangeCounts(1, 1, false)).toThrow('The anchor can only be excluded at an end of the range');
    expect(() => checkRangeCounts(0, 1, false)).not.toThrow();
  });
});
