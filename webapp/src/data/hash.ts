// Upstream's URL hashes for views (#narrow/channel/9-design/topic/…, #narrow/dm/8,9-group, #feed,
// #inbox), so links are shared with other Zulip clients and Back and reload keep the view.
import { dmPeers, type Narrow } from './narrow';

/** `%` becomes `.` (and `.`, `(`, `)` are escaped), as upstream does, since browsers decode hashes unevenly. */
const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

export const encodeHashComponent = (text: string): string => encodeURIComponent(text).replace(/[%().]/g, (c) => REPLACEMENTS[c]!);

export const decodeHashComponent = (text: string): string => decodeURIComponent(text.replace(/\./g, '%'));

/** What a hash needs to know of names: they only make the URL readable, the ids decide. */
export type NameLookup = { channelName: (id: number) => string | undefined; userName: (id: number) => string | undefined };

const slug = (name: string): string => name.replace(/ /g, '-');

export const narrowToHash = (narrow: Narrow, names: NameLookup, me: number): string => {
  switch (narrow.kind) {
    case 'inbox':
      return '#inbox';
    case 'feed':
      return '#feed';
    case 'channel': {
      const channel = `#narrow/channel/${encodeHashComponent(`${narrow.streamId}-${slug(names.channelName(narrow.streamId) ?? 'unknown')}`)}`;
      return narrow.topic === undefined ? channel : `${channel}/topic/${encodeHashComponent(narrow.topic)}`;
    }
    case 'dm': {
      const peers = dmPeers(narrow.userIds, me);
      const suffix = peers.length > 1 ? 'group' : slug(names.userName(peers[0]!) ?? 'unknown');
      return `#narrow/dm/${peers.join(',')}-${encodeHashComponent(suffix)}`;
    }
    case 'mentioned':
      return '#narrow/is/mentioned';
    case 'starred':
      return '#narrow/is/starred';
    case 'search':
      return `#narrow/search/${encodeHashComponent(narrow.query)}`;
  }
};

const leadingIds = (operand: string): number[] | undefined => {
  const match = /^(\d+(?:,\d+)*)(?:-|$)/.exec(operand);
  return match ? match[1]!.split(',').map(Number) : undefined;
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
  const [operator, operand] = terms[0]!;
  switch (operator) {
    case 'channel':
    case 'stream': {
      const id = leadingIds(operand);
      if (!id || id.length !== 1) return undefined;
      const topic = terms.find(([op]) => op === 'topic' || op === 'subject');
      return topic ? { kind: 'channel', streamId: id[0]!, topic: topic[1] } : { kind: 'channel', streamId: id[0]! };
    }
    case 'dm':
    case 'pm-with': {
      const ids = leadingIds(operand);
      return ids ? { kind: 'dm', userIds: ids } : undefined;
    }
    case 'is':
      if (operand === 'mentioned') return { kind: 'mentioned' };
      return operand === 'starred' ? { kind: 'starred' } : undefined;
    case 'search':
      return { kind: 'search', query: operand };
    default:
      return undefined;
  }
};
