// What the search box suggests as one types (upstream's search_suggestion.ts, smaller): for the
// word being typed, the operators it starts, and the channels and people it names; for an
// operator's operand, the channels, people or values that operand takes.
import { sortedSubscriptions } from './channels';
import { OPERATORS, type SearchContext } from './search';

/** A suggestion: the whole query it would give, and how the list shows it. */
export type Suggestion = { query: string; label: string };

const LIMIT = 8;

const VALUES: Record<string, string[]> = {
  is: ['dm', 'starred', 'mentioned', 'alerted', 'unread', 'resolved', 'followed', 'muted'],
  has: ['link', 'image', 'attachment', 'reaction'],
};

const DESCRIPTIONS: Record<string, string> = {
  channel: 'Messages in a channel',
  topic: 'Messages in a topic',
  sender: 'Sent by',
  dm: 'Direct messages with',
  'dm-including': 'Direct messages including',
  is: 'Messages that are…',
  has: 'Messages that have…',
  near: 'Messages around a message',
};

const operand = (text: string): string => (/\s/.test(text) ? text.replace(/\s/g, '+') : text);

const matches = (name: string, prefix: string): boolean =>
  prefix === '' ||
  name
    .toLowerCase()
    .split(/[\s_-]+/)
    .some((word) => word.startsWith(prefix)) ||
  name.toLowerCase().startsWith(prefix);

const channelNames = (context: SearchContext, prefix: string): string[] =>
  sortedSubscriptions(context.channels)
    .map((sub) => sub.name)
    .filter((name) => matches(name, prefix));

const peopleOf = (context: SearchContext, prefix: string) =>
  [...context.people.users.values()]
    .filter((u) => u.is_active && (matches(u.full_name, prefix) || u.email.toLowerCase().startsWith(prefix)))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));

/** Suggestions for a query as typed so far (the last word is the one being typed). */
export const searchSuggestions = (query: string, context: SearchContext): Suggestion[] => {
  const at = query.lastIndexOf(' ') + 1;
  const before = query.slice(0, at);
  const word = query.slice(at);
  if (word === '') return [];
  const found: Suggestion[] = [];
  const add = (text: string, label: string) => {
    if (!found.some((s) => s.query === before + text)) found.push({ query: before + text, label });
  };
  const typed = /^(-?)([\w-]+):(.*)$/.exec(word);
  if (typed && (OPERATORS as readonly string[]).includes(typed[2]!.toLowerCase())) {
    const [, negation, name, prefix] = typed as unknown as [string, string, string, string];
    const op = `${negation}${name.toLowerCase()}:`;
    const lower = prefix.toLowerCase();
    switch (name.toLowerCase()) {
      case 'channel':
        for (const channel of channelNames(context, lower)) add(op + operand(channel), `#${channel}`);
        break;
      case 'sender':
      case 'dm':
      case 'dm-including':
        for (const user of peopleOf(context, lower)) add(op + user.email, `${DESCRIPTIONS[name.toLowerCase()]} ${user.full_name}`);
        break;
      default:
        for (const value of VALUES[name.toLowerCase()] ?? []) if (value.startsWith(lower)) add(op + value, `${name}:${value}`);
    }
    return found.slice(0, LIMIT);
  }
  const lower = word.toLowerCase();
  add(word, `Search for ${word}`);
  for (const op of OPERATORS) if (op.startsWith(lower) && DESCRIPTIONS[op]) add(`${op}:`, `${op}: ${DESCRIPTIONS[op]}`);
  for (const channel of channelNames(context, lower)) add(`channel:${operand(channel)}`, `#${channel}`);
  for (const user of peopleOf(context, lower)) add(`sender:${user.email}`, `Sent by ${user.full_name}`);
  return found.slice(0, LIMIT);
};
