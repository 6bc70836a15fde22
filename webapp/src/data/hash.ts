// Upstream's URL hashes for views (#narrow/channel/9-design/topic/…, #narrow/dm/8,9-group, #feed,
// #inbox), so links are shared with other Zulip clients and Back and reload keep the view.
import { dmPeers, type Narrow } from './narrow';
import { narrowOfTerms, operatorOf, type SearchTerm } from './search';

/** `%` becomes `.` (and `.`, `(`, `)` are escaped), as upstream does, since browsers decode hashes unevenly. */
const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

export const encodeHashComponent = (text: string): string => encodeURIComponent(text).replace(/[%().]/g, (c) => REPLACEMENTS[c]!);

export const decodeHashComponent = (text: string): string => decodeURIComponent(text.replace(/\./g, '%'));

/** What a hash needs to know of names: they only make the URL readable, the ids decide. */
export type NameLookup = { channelName: (id: number) => string | undefined; userName: (id: number) => string | undefined };

const slug = (name: string): string => name.replace(/ /g, '-');

/** People in a hash: their ids, then the one person's name or `group` (upstream's people slug). */
const peopleSlug = (ids: number[], names: NameLookup): string =>
  `${ids.join(',')}-${encodeHashComponent(ids.length > 1 ? 'group' : slug(names.userName(ids[0]!) ?? 'unknown'))}`;

const encodeOperand = ({ operator, operand }: SearchTerm, names: NameLookup): string => {
  switch (operator) {
    case 'channel':
      return encodeHashComponent(`${operand}-${slug(names.channelName(Number(operand)) ?? 'unknown')}`);
    case 'sender':
    case 'dm':
    case 'dm-including':
      return peopleSlug(operand.split(',').map(Number), names);
    default:
      return encodeHashComponent(operand);
  }
};

export const narrowToHash = (narrow: Narrow, names: NameLookup, me: number): string => {
  switch (narrow.kind) {
    case 'inbox':
      return '#inbox';
    case 'feed':
      return '#feed';
    case 'channel': {
      const channel = `#narrow/channel/${encodeOperand({ operator: 'channel', operand: String(narrow.streamId) }, names)}`;
      return narrow.topic === undefined ? channel : `${channel}/topic/${encodeHashComponent(narrow.topic)}`;
    }
    case 'dm': {
      const peers = dmPeers(narrow.userIds, me);
      return `#narrow/dm/${peopleSlug(peers, names)}`;
    }
    case 'mentioned':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'search':
      return `#narrow/${narrow.terms.map((term) => `${term.negated ? '-' : ''}${term.operator}/${encodeOperand(term, names)}`).join('/')}`;
  }
};

const leadingIds = (operand: string): number[] | undefined => {
  const match = /^(\d+(?:,\d+)*)(?:-|$)/.exec(operand);
  return match ? match[1]!.split(',').map(Number) : undefined;
};

/** An operand read from a hash: ids where the API takes ids (a channel's one, a dm's several). */
const hashOperand = (operator: string, text: string): string | undefined => {
  switch (operator) {
    case 'channel':
    case 'sender':
    case 'dm-including':
    case 'near':
    case 'id': {
      const found = leadingIds(text);
      return found?.length === 1 ? String(found[0]) : undefined;
    }
    case 'dm':
      return leadingIds(text)?.join(',');
    default:
      return text;
  }
};

/** The view a hash names; undefined for a hash the app does not know (the caller shows the default view). */
export const hashToNarrow = (hash: string): Narrow | undefined => {
  const path = hash.replace(/^#/, '');
  if (path === 'inbox' || path === 'recent') return { kind: 'inbox' };
  if (path === 'feed' || path === 'all_messages') return { kind: 'feed' };
  const parts = path.split('/');
  if (parts[0] !== 'narrow' || parts.length < 3) return undefined;
  const terms: [string, string][] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    try {
      terms.push([parts[i]!, decodeHashComponent(parts[i + 1]!)]);
    } catch {
      return undefined;
    }
  }
  const read: SearchTerm[] = [];
  for (const [written, text] of terms) {
    const negated = written.startsWith('-');
    const operator = operatorOf(negated ? written.slice(1) : written) ?? (written === 'search' ? 'search' : undefined);
    const operand = operator && hashOperand(operator, text);
    if (operand === undefined) return undefined;
    read.push({ operator: operator!, operand, ...(negated ? { negated } : {}) });
  }
  return narrowOfTerms(read);
};
