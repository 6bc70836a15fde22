// What the integrations share, as upstream's zerver/lib/webhooks/common.py and git.py have it:
// event-type matching for only_events / exclude_events, Python's JSON text, truncation, and the
// Markdown and topic templates of the git services (GitHub, GitLab, Gitea).

/** Python's fnmatch.fnmatch on POSIX (case-sensitive): `*`, `?`, `[seq]` and `[!seq]`. */
export const fnmatch = (name: string, pattern: string): boolean => {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let set = pattern.slice(i + 1, end);
        const negate = set.startsWith('!');
        if (negate) set = set.slice(1);
        re += `[${negate ? '^' : ''}${set.replace(/\\/g, '\\\\').replace(/^\^/, '\\^')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, 's').test(name);
  } catch {
    return false;
  }
};

/** Upstream's event filter: posted unless only_events names none of its patterns or exclude_events one. */
export const eventWanted = (eventType: string, onlyEvents: string[] | undefined, excludeEvents: string[] | undefined): boolean => {
  if (onlyEvents !== undefined && !onlyEvents.some((p) => fnmatch(eventType, p))) return false;
  if (excludeEvents !== undefined && excludeEvents.some((p) => fnmatch(eventType, p))) return false;
  return true;
};

/** Python's json.dumps(value, indent=…): ASCII only, as its default ensure_ascii. */
export const pythonJsonDumps = (value: unknown, indent?: number): string =>
  (JSON.stringify(value, null, indent) ?? 'null').replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What Python's str.isspace() calls whitespace (JavaScript's \s, less U+FEFF, plus U+001C–U+001F and U+0085). */
const isPySpace = (c: string): boolean => (/\s/.test(c) && c !== '\ufeff') || (c >= '\u001c' && c <= '\u001f') || c === '\u0085';

/** Python's str.strip() of whitespace. */
export const strip = (text: string): string => {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpace(text[start])) start++;
  while (end > start && isPySpace(text[end - 1])) end--;
  return text.slice(start, end);
};

/** Upstream's truncate: at most `maxLength` characters, the cut marked with `suffix` (code points, as Python counts). */
export const truncate = (text: string, maxLength: number, suffix = '...'): string => {
  const chars = [...text];
  if (chars.length <= maxLength) return text;
  return chars.slice(0, maxLength - [...suffix].length).join('') + suffix;
};
