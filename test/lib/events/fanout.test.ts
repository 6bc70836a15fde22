// The stored form of a shared event (lib/events/fanout.ts): user id lists and per-user edits are
// exact for any input, and a stored event gives each user their version, or nothing.
import { applyEdits, decodeUserIds, diffEvent, encodeUserIds, eventForUser, listsUser, type SharedEvent } from '../../../lib/events/fanout';
import type { AlertWordsEvent, MessageEvent } from '../../../lib/models/event';

/** A deterministic pseudo-random generator (tests must not differ between runs). */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const randomIds = (next: () => number, count: number, spread: number): number[] =>
  [...new Set(Array.from({ length: count }, () => 1 + Math.floor(next() * spread)))].sort((a, b) => a - b);

/** A random JSON value of bounded depth (objects, arrays, strings, numbers, booleans, null). */
const randomJson = (next: () => number, depth = 0): unknown => {
  const kind = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (kind === 0) return Math.floor(next() * 100);
  if (kind === 1) return ['', 'a', 'b', 'read'][Math.floor(next() * 4)];
  if (kind === 2) return next() < 0.5;
  if (kind === 3) return null;
  if (kind === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, () => [['x', 'y', 'z', 'w'][Math.floor(next() * 4)], randomJson(next, depth + 1)]),
  );
};

describe('shared event user lists', () => {
  it('encodes and decodes any ascending list of ids exactly', () => {
    const next = random(7);
    for (const [count, spread] of [
      [0, 10],
      [1, 10],
      [50, 60],
      [1000, 1200],
      [5000, 10_000_000],
    ]) {
      const ids = randomIds(next, count, spread);
      expect(decodeUserIds(encodeUserIds(ids))).toEqual(ids);
    }
  });

  it('writes consecutive ids as one run', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => 500_000 + i);
    expect(encodeUserIds(ids)).toBe(`${(500_000).toString(36)}+${(9999).toString(36)}`);
    expect(encodeUserIds([11, 12, 13, 15, 40])).toBe('b+2,2,p');
  });

  it('answers membership for every id in and around a list', () => {
    const ids = randomIds(random(3), 300, 1000);
    const encoded = encodeUserIds(ids);
    const set = new Set(ids);
    for (let id = 0; id <= 1001; id += 1) expect([id, listsUser(encoded, id)]).toEqual([id, set.has(id)]);
    expect(listsUser('', 5)).toBe(false);
  });
});

describe('shared event edits', () => {
  it('turns the base into each target exactly, leaving the base unchanged', () => {
    const next = random(11);
    for (let i = 0; i < 2000; i += 1) {
      const base = randomJson(next);
      const target = randomJson(next);
      const frozen = JSON.stringify(base);
      const edits = diffEvent(base, target);
      expect(applyEdits(base, JSON.parse(JSON.stringify(edits)))).toEqual(target);
      expect(JSON.stringify(base)).toBe(frozen);
    }
  });

  it('finds no edit between versions that share their parts', () => {
    const message = { id: 1, content: 'x'.repeat(1000), display_recipient: [{ id: 1 }] };
    expect(diffEvent({ type: 'message', message, flags: [] }, { type: 'message', message, flags: [] })).toEqual([]);
    expect(diffEvent({ type: 'message', message, flags: [] }, { type: 'message', message, flags: ['read'] })).toEqual([
      { p: ['flags'], v: ['read'] },
    ]);
  });
});

describe('a stored shared event', () => {
  const message: MessageEvent = { type: 'message', message: { id: 9, recipient_id: 1 }, flags: [] };
  const stored = {
    ...message,
    fanout: {
      groups: [
        { users: encodeUserIds([10, 11, 12]), edits: [] },
        { users: encodeUserIds([14]), edits: [{ p: ['flags'], v: ['mentioned'] }] },
      ],
    },
  } as SharedEvent;

  it("gives each listed user their group's version without the fanout field", () => {
    expect([10, 11, 12, 14].map((id) => eventForUser(stored, id))).toEqual([
      message,
      message,
      message,
      { ...message, flags: ['mentioned'] },
    ]);
  });

  it('gives an unlisted user nothing, or the version for others when there is one', () => {
    expect(eventForUser(stored, 13)).toBeNull();
    const withOthers = { ...stored, fanout: { ...stored.fanout!, others: [{ p: ['all_public_streams_copy'], v: true }] } } as SharedEvent;
    expect(eventForUser(withOthers, 13)).toEqual({ ...message, all_public_streams_copy: true });
    expect(eventForUser(withOthers, 14)).toEqual({ ...message, flags: ['mentioned'] });
  });

  it('gives the users of a group marked none nothing, and everyone else the version for others', () => {
    const event: AlertWordsEvent = { type: 'alert_words', alert_words: ['x'] };
    const allBut = { ...event, fanout: { groups: [{ users: encodeUserIds([13, 20]), edits: [], none: true }], others: [] } } as SharedEvent;
    expect([12, 13, 14, 20, 21].map((id) => eventForUser(allBut, id))).toEqual([event, null, event, null, event]);
  });

  it('speaks only for the users of its span', () => {
    const event: AlertWordsEvent = { type: 'alert_words', alert_words: ['x'] };
    const spanned = {
      ...event,
      fanout: { span: [10, 12], groups: [{ users: encodeUserIds([11]), edits: [] }], others: [] },
    } as SharedEvent;
    expect([9, 10, 11, 12, 13].map((id) => eventForUser(spanned, id))).toEqual([null, event, event, event, null]);
    const open = { ...spanned, fanout: { ...spanned.fanout!, span: [13] } } as SharedEvent;
    expect([12, 13, 1_000_000].map((id) => eventForUser(open, id))).toEqual([null, event, event]);
  });

  it('passes an event that is not shared through unchanged', () => {
    expect(eventForUser(message, 1)).toBe(message);
  });
});
