// `<time:…>` timestamps, read as upstream reads them (python-dateutil's lenient parser, then a Unix
// time in seconds), for the forms people and clients write: ISO 8601 (what the composers insert),
// "Jun 5th 2017, 10:30PM", "31 Dec 2017 5:30 am IST", "12/31/2017 17:00", a Unix time. A time
// without a zone is UTC; missing date parts are today's (UTC), a missing time is midnight.

const WEEKDAYS = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?\.?$/;
// Words dateutil skips between the parts of a date.
const SKIPPED = new Set(['at', 'on', 'of', 'the', 'and', 'ad', 'm', 't', '-', '/', '.']);
// The zone abbreviations people write most, with their offsets in minutes (upstream resolves
// abbreviations through a table of the unambiguous ones of the tz database).
const ZONES: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ut: 0,
  wet: 0,
  bst: 60,
  cet: 60,
  cest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  ist: 330,
  pkt: 300,
  ict: 420,
  wib: 420,
  sgt: 480,
  hkt: 480,
  awst: 480,
  jst: 540,
  kst: 540,
  acst: 570,
  aest: 600,
  aedt: 660,
  nzst: 720,
  nzdt: 780,
  hst: -600,
  akst: -540,
  akdt: -480,
  pst: -480,
  pdt: -420,
  mst: -420,
  mdt: -360,
  cst: -360,
  cdt: -300,
  est: -300,
  edt: -240,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  brt: -180,
  art: -180,
};

type Parts = {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  micro?: number;
  offset?: number;
};

const FULL_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** A month by its name or its first three letters (and "sept"), 1-12. */
const monthOf = (word: string): number | undefined => {
  const w = word.replace(/\.$/, '');
  const i = FULL_MONTHS.findIndex((m) => m === w || m.slice(0, 3) === w || (w === 'sept' && m === 'september'));
  return i === -1 ? undefined : i + 1;
};

const offsetOf = (text: string): number | undefined => {
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(text);
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const isoParts = (text: string): Parts | undefined => {
  const m = ISO.exec(text);
  if (!m) return undefined;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    micro: Number((m[7] ?? '0').padEnd(6, '0')),
    offset: m[8] === undefined ? undefined : m[8].toUpperCase() === 'Z' ? 0 : offsetOf(m[8]),
  };
};

/** The parts of a free-form date, or undefined when a word is not part of a date. */
const wordParts = (text: string): Parts | undefined => {
  const words = text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((w) => w !== '');
  const p: Parts = {};
  let found = false;
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i];
    const next = words[i + 1];
    let m: RegExpExecArray | null;
    if (SKIPPED.has(w) || WEEKDAYS.test(w)) continue;
    const month = monthOf(w);
    if (month !== undefined && p.month === undefined) {
      p.month = month;
    } else if ((m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(w))) {
      p.hour = Number(m[1]);
      p.minute = Number(m[2]);
      p.second = Number(m[3] ?? 0);
      if (m[4]) p.hour = twelveHour(p.hour, m[4]);
    } else if ((m = /^(\d{1,2})(am|pm|a\.m\.|p\.m\.)$/.exec(w))) {
      p.hour = twelveHour(Number(m[1]), m[2]);
      p.minute = 0;
      p.second = 0;
    } else if (/^(?:am|pm|a\.m\.|p\.m\.)$/.test(w) && p.hour !== undefined) {
      p.hour = twelveHour(p.hour, w);
    } else if (/^\d{1,2}$/.test(w) && next !== undefined && /^(?:am|pm|a\.m\.|p\.m\.)$/.test(next)) {
      p.hour = twelveHour(Number(w), next);
      p.minute = 0;
      p.second = 0;
      i += 1;
    } else if ((m = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(w)) && p.day === undefined) {
      p.day = Number(m[1]);
    } else if (/^\d{4}$/.test(w) && p.year === undefined) {
      p.year = Number(w);
    } else if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(w))) {
      [p.year, p.month, p.day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    } else if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(w))) {
      // Month first, as dateutil reads it by default.
      [p.month, p.day, p.year] = [Number(m[1]), Number(m[2]), m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3])];
    } else if (w in ZONES && p.offset === undefined) {
      p.offset = ZONES[w];
    } else if (offsetOf(w) !== undefined && p.offset === undefined && p.hour !== undefined) {
      p.offset = offsetOf(w);
    } else {
      return undefined;
    }
    found = true;
  }
  return found ? p : undefined;
};

const twelveHour = (hour: number, marker: string): number => {
  if (hour < 1 || hour > 12) return Number.NaN;
  const pm = marker.startsWith('p');
  return (hour % 12) + (pm ? 12 : 0);
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Python's datetime.isoformat() of a UTC time, with Z for +00:00, as upstream writes datetime=. */
const isoUtc = (ms: number, micro: number): string | undefined => {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) return undefined;
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${date}T${time}${micro === 0 ? '' : `.${pad(micro, 6)}`}Z`;
};

const fromParts = (p: Parts, now: Date): string | undefined => {
  const year = p.year ?? now.getUTCFullYear();
  const month = p.month ?? now.getUTCMonth() + 1;
  const day = p.day ?? now.getUTCDate();
  const [hour, minute, second] = [p.hour ?? 0, p.minute ?? 0, p.second ?? 0];
  if (![year, month, day, hour, minute, second].every(Number.isInteger)) return undefined;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 31 February over into March; a date that does not exist is an error.
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return isoUtc(ms - (p.offset ?? 0) * 60_000, p.micro ?? 0);
};

/**
 * The `datetime` attribute upstream writes for a `<time:…>` text (ISO 8601 in UTC, `Z`), or
 * undefined when the text is not a time (upstream's "Invalid time format").
 */
export const timestampDatetime = (text: string, now = new Date()): string | undefined => {
  const trimmed = text.trim();
  // A number dateutil does not read as a date (YYYYMMDD) is a Unix time in seconds.
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed) && !/^\d{8}$/.test(trimmed)) {
    const seconds = Number(trimmed);
    const micro = Math.round((seconds - Math.floor(seconds)) * 1e6);
    return isoUtc(Math.floor(seconds) * 1000, micro);
  }
  if (/^\d{8}$/.test(trimmed))
    return fromParts({ year: Number(trimmed.slice(0, 4)), month: Number(trimmed.slice(4, 6)), day: Number(trimmed.slice(6)) }, now);
  const parts = isoParts(trimmed) ?? wordParts(trimmed);
  return parts === undefined ? undefined : fromParts(parts, now);
};
