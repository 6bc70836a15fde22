// Upstream's search language (web/src/filter.ts): `channel:design topic:"new logo" -sender:me
// has:link lunch`, read into terms whose operands are ids where the API takes ids; the terms back
// into text for the search box; and the view a search names (a channel, a topic, a DM, …, or a
// search view for anything more).
import { channelName, type Channels } from './channels';
import type { Narrow } from './narrow';
import type { People } from './people';

/** One term: channel, sender, dm, dm-including and near carry ids (a dm's comma-separated), others text. */
export type SearchTerm = { operator: string; operand: string; negated?: boolean };

export const OPERATORS = ['channel', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'near', 'id', 'channels'] as const;

/** Older spellings upstream still reads. */
const ALIASES: Record<string, string> = { stream: 'channel', subject: 'topic', from: 'sender', 'pm-with': 'dm', streams: 'channels' };

/** An operator's name, its older spellings read as the current one; undefined for one upstream does not have. */
export const operatorOf = (name: string): string | undefined => {
  const lower = name.toLowerCase();
  return (OPERATORS as readonly string[]).includes(lower) ? lower : ALIASES[lower];
};

export type SearchContext = { channels: Channels; people: People; me: number };

const channelId = (context: SearchContext, name: string): number | undefined => {
  const lower = name.toLowerCase();
  if (/^\d+$/.test(name) && context.channels.streams.has(Number(name))) return Number(name);
  return [...context.channels.streams.values()].find((s) => s.name.toLowerCase() === lower)?.stream_id;
};

const personId = (context: SearchContext, text: string): number | undefined => {
  const lower = text.toLowerCase();
  if (lower === 'me') return context.me;
  if (/^\d+$/.test(text) && context.people.users.has(Number(text))) return Number(text);
  return [...context.people.users.values()].find((u) => u.email.toLowerCase() === lower || u.full_name.toLowerCase() === lower)?.user_id;
};

/** An operand as typed to the operand the API takes; undefined when it names nothing known. */
const resolveOperand = (context: SearchContext, operator: string, operand: string): string | undefined => {
  switch (operator) {
    case 'channel':
      return channelId(context, operand)?.toString();
    case 'sender':
    case 'dm-including':
      return personId(context, operand)?.toString();
    case 'dm': {
      const ids = operand.split(',').map((part) => personId(context, part.trim()));
      return ids.every((id) => id !== undefined) ? ids.join(',') : undefined;
    }
    case 'near':
    case 'id':
      return /^\d+$/.test(operand) ? operand : undefined;
    default:
      return operand;
  }
};

/** The query's words: quoted operands keep their spaces (`topic:"new logo"`), `+` stands for a space. */
const tokens = (query: string): string[] => query.match(/-?[\w-]+:"[^"]*"?|"[^"]*"?|\S+/g) ?? [];

const unquote = (text: string): string => text.replace(/^"|"$/g, '').replace(/\+/g, ' ');

export type ParsedSearch = { terms: SearchTerm[]; unknown: string[] };

/** Reads a query; operands that name no channel or person are listed in `unknown` (and left out). */
export const parseSearch = (query: string, context: SearchContext): ParsedSearch => {
  const terms: SearchTerm[] = [];
  const unknown: string[] = [];
  const words: string[] = [];
  for (const token of tokens(query)) {
    const match = /^(-?)([\w-]+):(.*)$/.exec(token);
    const operator = match ? operatorOf(match[2]!) : undefined;
    if (!match || !operator || match[3] === '') {
      words.push(unquote(token));
      continue;
    }
    const written = unquote(match[3]!);
    const operand = resolveOperand(context, operator, written);
    if (operand === undefined) unknown.push(`${operator}:${written}`);
    else terms.push({ operator, operand, ...(match[1] ? { negated: true } : {}) });
  }
  const text = words.join(' ').trim();
  if (text !== '') terms.push({ operator: 'search', operand: text });
  return { terms, unknown };
};

const quoted = (text: string): string => (/\s/.test(text) ? `"${text}"` : text);

/** Terms as the search box shows them: names and emails rather than ids. */
export const searchText = (terms: readonly SearchTerm[], context: SearchContext): string =>
  terms
    .map(({ operator, operand, negated }) => {
      const email = (id: string) => context.people.users.get(Number(id))?.email ?? id;
      if (operator === 'search') return operand;
      let shown = operand;
      if (operator === 'channel') shown = channelName(context.channels, Number(operand)) ?? operand;
      else if (operator === 'sender' || operator === 'dm-including') shown = email(operand);
      else if (operator === 'dm') shown = operand.split(',').map(email).join(',');
      return `${negated ? '-' : ''}${operator}:${quoted(shown)}`;
    })
    .join(' ');

const ids = (operand: string): number[] => operand.split(',').map(Number);

/** The view for some terms: one of the app's own views when the terms are exactly one, else a search view. */
export const narrowOfTerms = (terms: readonly SearchTerm[]): Narrow => {
  const plain = terms.every((t) => !t.negated);
  const [first, second] = terms;
  if (plain && terms.length === 1 && first!.operator === 'channel') return { kind: 'channel', streamId: Number(first!.operand) };
  if (plain && terms.length === 2 && first!.operator === 'channel' && second!.operator === 'topic')
    return { kind: 'channel', streamId: Number(first!.operand), topic: second!.operand };
  if (plain && terms.length === 1 && first!.operator === 'dm') return { kind: 'dm', userIds: ids(first!.operand) };
  if (plain && terms.length === 1 && first!.operator === 'is' && first!.operand === 'starred') return { kind: 'starred' };
  if (plain && terms.length === 1 && first!.operator === 'is' && first!.operand === 'mentioned') return { kind: 'mentioned' };
  return { kind: 'search', terms: [...terms] };
};

/** A view's terms (the search box shows them while the view is on screen). */
export const termsOfNarrow = (narrow: Narrow): SearchTerm[] => {
  switch (narrow.kind) {
    case 'inbox':
    case 'feed':
      return [];
    case 'channel':
      return [
        { operator: 'channel', operand: String(narrow.streamId) },
        ...(narrow.topic === undefined ? [] : [{ operator: 'topic', operand: narrow.topic }]),
      ];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds.join(',') }];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'search':
      return narrow.terms;
  }
};

/** Terms whose operands are ids, as GET /messages' `narrow` takes them. */
export const apiTerms = (terms: readonly SearchTerm[]): { operator: string; operand: string | number | number[]; negated?: boolean }[] =>
  terms.map(({ operator, operand, negated }) => {
    let value: string | number | number[] = operand;
    if (operator === 'dm') value = ids(operand);
    else if (['channel', 'sender', 'dm-including', 'near', 'id'].includes(operator)) value = Number(operand);
    return { operator, operand: value, ...(negated ? { negated } : {}) };
  });

/** The message a `near:` search opens at. */
export const nearAnchor = (narrow: Narrow): number | undefined => {
  if (narrow.kind !== 'search') return undefined;
  const near = narrow.terms.find((t) => t.operator === 'near' || t.operator === 'id');
  return near ? Number(near.operand) : undefined;
};
