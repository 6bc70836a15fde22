// What the compose box completes as one types (upstream's composebox_typeahead.ts): `@` people,
// groups and the wildcards the sender may use (`@_` for a silent mention), `#` channels and
// `#**channel>` a channel's topics, `:` emoji (upstream's names and the organization's own). A pure
// function of the text before the cursor: the token being typed and what may replace it.
import { sortedSubscriptions, type Channels } from './channels';
import type { People } from './people';

export type Completion = { key: string; label: string; detail?: string; text: string };

/** The token being completed: where it starts in the text, and the completions offered for it. */
export type TypeaheadMatch = { start: number; completions: Completion[] };

export type UserGroup = { id: number; name: string; is_system_group?: boolean; deactivated?: boolean };

export type ComposeContext = {
  people: People;
  channels: Channels;
  groups: readonly UserGroup[];
  /** Upstream's emoji names (the canonical one first) and the organization's custom emoji names; empty until loaded. */
  emoji: readonly { name: string; glyph?: string }[];
  /** The topics of a channel, when known (fetched when asked for). */
  topicsOf: (streamId: number) => readonly string[] | undefined;
  /** Where the message goes: wildcards depend on it. */
  to: 'stream' | 'dm';
  /** Whether the sender may use @**all**, @**everyone**, @**channel** and @**topic** here. */
  wildcardsAllowed: boolean;
  me: number;
};

const LIMIT = 8;

const matches = (name: string, query: string): boolean => {
  const lower = name.toLowerCase();
  return lower.startsWith(query) || lower.split(/[\s_-]+/).some((word) => word.startsWith(query));
};

const WILDCARDS = [
  { name: 'all', detail: 'Notify channel', stream: true },
  { name: 'everyone', detail: 'Notify channel', stream: true },
  { name: 'channel', detail: 'Notify channel', stream: true },
  { name: 'topic', detail: 'Notify topic', stream: false },
];

const mentions = (query: string, silent: boolean, context: ComposeContext): Completion[] => {
  const at = silent ? '@_' : '@';
  const found: Completion[] = [];
  if (context.wildcardsAllowed && !silent) {
    for (const w of WILDCARDS) {
      if ((context.to === 'dm' && w.name !== 'all' && w.name !== 'everyone') || !w.name.startsWith(query)) continue;
      found.push({ key: `wildcard:${w.name}`, label: w.name, detail: w.detail, text: `@**${w.name}** ` });
    }
  }
  const users = [...context.people.users.values()]
    .filter((u) => u.is_active && u.user_id !== context.me && (matches(u.full_name, query) || u.email.toLowerCase().startsWith(query)))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const sameName = (name: string) => [...context.people.users.values()].filter((u) => u.full_name === name).length > 1;
  for (const u of users) {
    const name = sameName(u.full_name) ? `${u.full_name}|${u.user_id}` : u.full_name;
    found.push({ key: `user:${u.user_id}`, label: u.full_name, detail: u.email, text: `${at}**${name}** ` });
  }
  for (const g of context.groups) {
    if (g.is_system_group || g.deactivated || !matches(g.name, query)) continue;
    found.push({ key: `group:${g.id}`, label: g.name, detail: 'User group', text: `${at}*${g.name}* ` });
  }
  return found.slice(0, LIMIT);
};

const channelsMatching = (query: string, context: ComposeContext): Completion[] =>
  sortedSubscriptions(context.channels)
    .filter((sub) => matches(sub.name, query))
    .slice(0, LIMIT)
    .map((sub) => ({ key: `channel:${sub.stream_id}`, label: `#${sub.name}`, detail: sub.description, text: `#**${sub.name}**` }));

const topicsMatching = (channel: string, query: string, context: ComposeContext): Completion[] => {
  const sub = [...context.channels.subs.values(), ...context.channels.streams.values()].find((s) => s.name === channel);
  if (!sub) return [];
  return (context.topicsOf(sub.stream_id) ?? [])
    .filter((topic) => topic.toLowerCase().includes(query))
    .slice(0, LIMIT)
    .map((topic) => ({ key: `topic:${topic}`, label: topic, detail: `#${channel}`, text: `#**${channel}>${topic}** ` }));
};

const emojiMatching = (query: string, context: ComposeContext): Completion[] =>
  context.emoji
    .filter(({ name }) => matches(name, query))
    .sort((a, b) => Number(!a.name.startsWith(query)) - Number(!b.name.startsWith(query)) || a.name.length - b.name.length)
    .slice(0, LIMIT)
    .map(({ name, glyph }) => ({ key: `emoji:${name}`, label: `${glyph ? `${glyph} ` : ''}:${name}:`, text: `:${name}: ` }));

/** `#**channel>` (or `#**channel**>`) and the topic typed so far. */
const TOPIC_TOKEN = /#\*\*([^*\n>]+?)(?:\*\*)?>([^*\n]{0,60})$/;

/** The channel whose topics `#**channel>` asks for, if the text before the cursor ends in such a token. */
export const topicChannel = (before: string): string | undefined => TOPIC_TOKEN.exec(before)?.[1];

/** The token before the cursor and its completions; undefined when nothing is being completed. */
export const composeTypeahead = (before: string, context: ComposeContext): TypeaheadMatch | undefined => {
  const mention = /(?:^|[\s(])(@(_?)(?:\*\*)?([^\n@*]{0,30}))$/.exec(before);
  if (mention && !/\s$/.test(mention[3]!))
    return {
      start: before.length - mention[1]!.length,
      completions: mentions(mention[3]!.toLowerCase(), mention[2] === '_', context),
    };
  const emoji = /(?:^|[\s(])(:([\w+-]{2,}))$/.exec(before);
  if (emoji) return { start: before.length - emoji[1]!.length, completions: emojiMatching(emoji[2]!.toLowerCase(), context) };
  const channel = /(?:^|[\s(])(#(?:\*\*)?([^\n#*>]{0,30}))$/.exec(before);
  if (channel && !/\s$/.test(channel[2]!))
    return { start: before.length - channel[1]!.length, completions: channelsMatching(channel[2]!.toLowerCase(), context) };
  const topic = TOPIC_TOKEN.exec(before);
  if (topic) return { start: topic.index, completions: topicsMatching(topic[1]!, topic[2]!.toLowerCase(), context) };
  return undefined;
};
