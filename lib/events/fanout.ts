// The stored form of one event shared by many users (written by send.ts, read by event-filters.ts):
// one item on the organization's stream holds the event once, the users it is for, and how each
// user's version differs from it. Every version is exact: a user's version is the event with its
// group's edits applied, so nothing is capped or approximated.
//
//   { ...event, fanout: { span?: [lo, hi], groups: [{ users, edits }], others? } }
//
// - `users`: the group's user ids, ascending, as runs of consecutive ids: each run is the distance
//   from the end of the previous run (base 36), and `+n` when it has n more ids after its first
//   ("b+rr,2" is 11…1000 and 1002). An organization's ids are mostly consecutive, so 10,000
//   subscribers usually take a few bytes; scattered ids take 2 to 5 bytes each.
// - `edits`: set (`v`) or delete (`d`) a value at a path (object keys, array indexes) of the event.
// - `none`: the group's users get nothing (an organization-wide event that leaves some users out).
// - `others`: the edits of the version for users in no group; without it they get nothing.
// - `span`: the user ids this item speaks for (inclusive; no `hi`: no upper bound). An audience
//   too large for one item is split by id range into several items whose spans partition all ids,
//   so each user, listed or not, has exactly one item that speaks for them.
import type { ApiEvent } from '../models/event';

export type Edit = { p: (string | number)[]; v?: unknown; d?: true };
export type FanoutGroup = { users: string; edits: Edit[]; none?: true };
export type Fanout = { span?: [number, number?]; groups: FanoutGroup[]; others?: Edit[] };
/** An event as stored on the organization's stream: shared events carry `fanout`. */
export type SharedEvent = ApiEvent & { fanout?: Fanout };

/** Encodes ascending, distinct user ids as runs (see above). */
export const encodeUserIds = (sorted: readonly number[]): string => {
  const runs: string[] = [];
  let prevEnd = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j += 1;
    runs.push((sorted[i] - prevEnd).toString(36) + (j > i ? `+${(j - i).toString(36)}` : ''));
    prevEnd = sorted[j];
    i = j + 1;
  }
  return runs.join(',');
};

/** The user ids of an encoded list, ascending. */
export const decodeUserIds = (encoded: string): number[] => {
  const ids: number[] = [];
  let prevEnd = 0;
  if (encoded === '') return ids;
  for (const run of encoded.split(',')) {
    const [start, more] = run.split('+');
    const first = prevEnd + parseInt(start, 36);
    const count = more === undefined ? 0 : parseInt(more, 36);
    for (let id = first; id <= first + count; id += 1) ids.push(id);
    prevEnd = first + count;
  }
  return ids;
};

const COMMA = 44;
const PLUS = 43;

/** Whether an encoded list holds `userId`, reading runs only until it is passed. */
export const listsUser = (encoded: string, userId: number): boolean => {
  let prevEnd = 0;
  let at = 0;
  while (at < encoded.length) {
    // One pass over this run only: an indexOf('+') from here would scan to the string's end on
    // every run without one, quadratic in a list of many single ids.
    let end = at;
    let plus = -1;
    for (; end < encoded.length && encoded.charCodeAt(end) !== COMMA; end += 1) if (encoded.charCodeAt(end) === PLUS) plus = end;
    const hasMore = plus >= 0;
    const first = prevEnd + parseInt(encoded.slice(at, hasMore ? plus : end), 36);
    const last = first + (hasMore ? parseInt(encoded.slice(plus + 1, end), 36) : 0);
    if (userId < first) return false;
    if (userId <= last) return true;
    prevEnd = last;
    at = end + 1;
  }
  return false;
};

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The edits that turn `base` into `target` (both JSON values; an undefined property is an absent
 * one). Equal references are not walked, so versions built from shared parts cost little to diff.
 */
export const diffEvent = (base: unknown, target: unknown): Edit[] => {
  const out: Edit[] = [];
  const walk = (a: unknown, b: unknown, path: (string | number)[]): void => {
    if (a === b) return;
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const [k, bv] of Object.entries(b)) {
        if (bv === undefined) continue;
        if (a[k] === undefined) out.push({ p: [...path, k], v: bv });
        else walk(a[k], bv, [...path, k]);
      }
      for (const [k, av] of Object.entries(a)) if (av !== undefined && b[k] === undefined) out.push({ p: [...path, k], d: true });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      b.forEach((bv, i) => walk(a[i], bv, [...path, i]));
      return;
    }
    out.push({ p: path, v: b });
  };
  walk(base, target, []);
  return out;
};

/** `value` with one edit applied, copying only along the edited path (the stored event is shared). */
const applyEdit = (value: unknown, edit: Edit, depth = 0): unknown => {
  if (depth === edit.p.length) return edit.v;
  const key = edit.p[depth];
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<string | number, unknown>;
  if (edit.d && depth === edit.p.length - 1) delete copy[key];
  else copy[key] = applyEdit(copy[key], edit, depth + 1);
  return copy;
};

/** `base` with `edits` applied, in order. */
export const applyEdits = <T>(base: T, edits: readonly Edit[]): T => edits.reduce<unknown>((v, e) => applyEdit(v, e), base) as T;

/**
 * The version of a stored event for one user: the event itself when it is not shared, the user's
 * version without `fanout` when it is, or null when it is not for them.
 */
export const eventForUser = (stored: ApiEvent, userId: number): ApiEvent | null => {
  const { fanout, ...event } = stored as SharedEvent;
  if (!fanout) return stored;
  const [lo, hi] = fanout.span ?? [];
  if ((lo !== undefined && userId < lo) || (hi !== undefined && hi !== null && userId > hi)) return null;
  const group = fanout.groups.find((g) => listsUser(g.users, userId));
  if (group) return group.none ? null : applyEdits(event as ApiEvent, group.edits);
  return fanout.others ? applyEdits(event as ApiEvent, fanout.others) : null;
};
