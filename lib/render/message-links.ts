// What messages the server writes about another message put around it (reminders, message
// reports): a link to the message in its conversation, and a fence that its quoted content cannot close.
import type { Channel } from '../models/channel';
import type { Message } from '../models/message';
import type { User } from '../models/user';
import { channelSlug, encodeHashComponent as encodeNarrowComponent } from './inline';

/** Upstream's encode_hash_component: URL-quote, then "." for "%" so the result survives in a fragment. */
const encodeHashComponent = (text: string): string =>
  encodeURIComponent(text)
    .replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');

/** Upstream's silent_mention_syntax_for_user: names the user without notifying them. */
export const silentMention = (user: Pick<User, 'fullName' | 'id'>): string => `@_**${user.fullName}|${user.id}**`;

/** A link to a channel's view (upstream's stream_narrow_url). */
export const channelLink = (realmUrl: string, channel: Pick<Channel, 'id' | 'name'>): string =>
  `${realmUrl}/#narrow/channel/${channel.id}-${encodeHashComponent(channel.name)}`;

/** A link to a topic of a channel (upstream's topic_narrow_url). */
export const topicLink = (realmUrl: string, channel: Pick<Channel, 'id' | 'name'>, topic: string): string =>
  `${channelLink(realmUrl, channel)}/topic/${encodeHashComponent(topic)}`;

/** A link to the message's conversation in the web app (upstream's topic_narrow_url, personal_narrow_url, direct_message_group_narrow_url). */
export const conversationLink = (realmUrl: string, message: Message, channel: Channel | undefined, viewerId: number): string => {
  if (channel) return topicLink(realmUrl, channel, message.topic);
  const others = message.dmUserIds.filter((id) => id !== viewerId);
  const slug = others.length <= 1 ? `${others[0] ?? viewerId}-dm` : `${others.join(',')}-group`;
  return `${realmUrl}/#narrow/dm/${slug}`;
};

/** A link to the message in its conversation (upstream's message_link_url). */
export const messageLink = (realmUrl: string, message: Message, channel: Channel | undefined, viewerId: number): string =>
  `${conversationLink(realmUrl, message, channel, viewerId)}/near/${message.id}`;

/** A fence longer than any run of backticks in the text, so the quote cannot be closed early. */
export const unusedFence = (text: string): string => {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
};

/** Characters that break `#**channel**` syntax (upstream's invalid_stream_topic_regex), and their escapes. */
const BROKEN_LINK_CHARACTERS = /[`>*&[\]]|\$\$/g;
const LINK_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

/** Upstream's get_stream_link_syntax: `#**name**`, or a plain Markdown link when the name would break it. */
export const channelLinkSyntax = (channel: Pick<Channel, 'id' | 'name'>): string => {
  if (!new RegExp(BROKEN_LINK_CHARACTERS.source).test(channel.name)) return `#**${channel.name}**`;
  const text = `#${channel.name.replace(BROKEN_LINK_CHARACTERS, (c) => LINK_ESCAPES[c] ?? c)}`;
  return `[${text}](#narrow/channel/${channelSlug(channel)})`;
};

/**
 * Upstream's get_stream_topic_link_syntax (and with `messageId` its get_message_link_syntax):
 * `#**channel>topic**` (`#**channel>topic@id**`), or a plain Markdown link when the channel's name
 * or the topic would break that syntax.
 */
export const topicLinkSyntax = (channel: Pick<Channel, 'id' | 'name'>, topic: string, messageId?: number): string => {
  const broken = new RegExp(BROKEN_LINK_CHARACTERS.source);
  const at = messageId === undefined ? '' : `@${messageId}`;
  if (!broken.test(channel.name) && !broken.test(topic)) return `#**${channel.name}>${topic}${at}**`;
  const escape = (text: string) => text.replace(BROKEN_LINK_CHARACTERS, (c) => LINK_ESCAPES[c] ?? c);
  const url = `#narrow/channel/${channelSlug(channel)}/topic/${encodeNarrowComponent(topic)}`;
  if (messageId === undefined) return `[#${escape(channel.name)} > ${escape(topic)}](${url})`;
  return `[#${escape(channel.name)} > ${escape(topic)} @ 💬](${url}/near/${messageId})`;
};
