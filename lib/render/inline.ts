// Inline Markdown, as upstream's Python-Markdown configuration applies it: a fixed list of patterns
// in priority order (code, strong-emphasis, user mentions, channel/topic links, group mentions,
// links, bare URLs, the organization's linkifiers, entities, strong, emphasis, strikethrough,
// emoji names, Unicode emoji).
// Each pattern runs over the whole text; a match becomes a placeholder that later patterns cannot
// see into, and the text inside an element (a link's label, a strong span) is processed only by
// the patterns after the one that made it, exactly as upstream's inline processor does.
import { EMOTICON_CONVERSIONS, isZulipExtraEmoji, unicodeEmojiCode, unicodeEmojiIn, unicodeEmojiNames } from '../emoji';
import tlds from 'tlds';
import { renderTex } from './tex';
import { timestampDatetime } from './timestamp';
import { linkifierRegex, type LinkifierMatch, type LinkifierRegex } from '../validation/linkifier-pattern';
import { expandUriTemplate } from '../validation/uri-template';
import type { RenderChannel, RenderGroup, RenderInput, RenderRealmEmoji, RenderReferences, RenderUser } from './types';
import { topicKey } from './types';

/** Escapes text content: &, < and > (upstream leaves quotes in text as typed). */
const escapeText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Escapes an attribute value. */
export const escapeAttribute = (text: string): string => escapeText(text).replace(/"/g, '&quot;');

// A placeholder is U+E000, the index as private-use "digits" U+E010..U+E019, then U+E001: no
// pattern (not even a linkifier's [0-9]+) can match inside one. These characters are removed
// from the input first.
export const PLACEHOLDER_CHARS = /[\uE000-\uE01F]/g;
const PLACEHOLDER = /\uE000([\uE010-\uE019]+)\uE001/g;
const encodeIndex = (n: number): string => [...String(n)].map((d) => String.fromCharCode(0xe010 + Number(d))).join('');
const decodeIndex = (s: string): number => Number([...s].map((c) => c.charCodeAt(0) - 0xe010).join(''));

/** What the patterns read and what they record while rendering one message. */
export type InlineState = {
  usersById: Map<number, RenderUser>;
  usersByName: Map<string, RenderUser[]>;
  groupsByName: Map<string, RenderGroup>;
  channelsByName: Map<string, RenderChannel>;
  realmEmojiByName: Map<string, RenderRealmEmoji>;
  latestInTopic: ReadonlyMap<string, number>;
  linkifiers: { regex: LinkifierRegex; urlTemplate: string }[];
  /** Text escaping: the profile-field flavour also escapes quotes (renderPlainMarkdown). */
  escape: (text: string) => string;
  /**
   * The profile-field flavour (renderPlainMarkdown) links a bare URL wherever it ends; messages link
   * one only when sentence punctuation and then a space or the end follow, as upstream.
   */
  profileFlavour: boolean;
  /** Whether emoji become spans and TeX renders (see MAX_HTML_BYTES_RICH in index.ts). */
  rich: boolean;
  /** The sender's translate_emoticons setting. */
  translateEmoticons: boolean;
  /** Image links rendered and not yet handed to the block renderer (takePreviews). */
  imageLinks: { href: string; title: string | undefined }[];
  /** The image URLs previewed so far: each once a message. */
  previewed: Set<string>;
  /** The organization's URL, without a trailing slash (links to it render relative). */
  realmUrl: string | undefined;
  held: string[];
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  channelWildcard: boolean;
  topicWildcard: boolean;
  hasLink: boolean;
  references: RenderReferences;
};

/**
 * The organization's linkifiers, in their order, compiled with RE2 and upstream's boundaries
 * (lib/validation/linkifier-pattern.ts); patterns RE2 refuses are skipped, as upstream skips them.
 * One compilation for message content and topics (lib/render/topic-links.ts).
 */
export const compileLinkifiers = (linkifiers: RenderInput['linkifiers']): InlineState['linkifiers'] =>
  linkifiers.flatMap((l) => {
    const regex = linkifierRegex(l.pattern);
    return regex ? [{ regex, urlTemplate: l.urlTemplate }] : [];
  });

/** A linkifier match's URL: the template expanded with the match's named groups. */
export const linkifierUrl = (urlTemplate: string, groups: LinkifierMatch['groups']): string => expandUriTemplate(urlTemplate, groups);

/** The state for one rendering. */
export const newInlineState = (input: RenderInput, profileFlavour = false, rich = true): InlineState => {
  const usersByName = new Map<string, RenderUser[]>();
  for (const u of input.users) usersByName.set(u.fullName.toLowerCase(), [...(usersByName.get(u.fullName.toLowerCase()) ?? []), u]);
  const linkifiers = compileLinkifiers(input.linkifiers);
  return {
    usersById: new Map(input.users.map((u) => [u.id, u])),
    usersByName,
    groupsByName: new Map(input.groups.map((g) => [g.name.toLowerCase(), g])),
    channelsByName: new Map(input.channels.map((c) => [c.name, c])),
    realmEmojiByName: new Map((input.realmEmoji ?? []).map((e) => [e.name, e])),
    latestInTopic: input.latestInTopic ?? new Map(),
    linkifiers,
    escape: profileFlavour ? (text) => escapeText(text).replace(/"/g, '&quot;') : escapeText,
    profileFlavour,
    rich,
    translateEmoticons: input.translateEmoticons ?? false,
    realmUrl: input.realmUrl?.replace(/\/+$/, ''),
    imageLinks: [],
    previewed: new Set(),
    held: [],
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    channelWildcard: false,
    topicWildcard: false,
    hasLink: false,
    references: { userNames: [], userIds: [], groupNames: [], channelNames: [], topics: [], emojiNames: [] },
  };
};

const addOnce = <T>(list: T[], value: T): void => {
  if (!list.includes(value)) list.push(value);
};

// upstream's hash encoding of a narrow URL component: percent-encode everything but
// [A-Za-z0-9_.~-], then "." becomes ".2E" and "%" becomes ".".
export const encodeHashComponent = (text: string): string =>
  encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/\./g, '%2E')
    .replace(/%/g, '.');
/** A channel's part of a narrow URL (upstream's encode_channel): `<id>-<name, hash-encoded>`. */
export const channelSlug = (c: RenderChannel): string => `${c.id}-${encodeHashComponent(c.name.replace(/ /g, '-'))}`;
const channelUrl = (c: RenderChannel): string => `/#narrow/channel/${channelSlug(c)}`;
const topicUrl = (c: RenderChannel, topic: string): string => `${channelUrl(c)}/topic/${encodeHashComponent(topic)}`;

const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

/** One inline pattern: its regex (global) and what a match becomes (null: leave it as text). */
type Pattern = {
  /** A global JavaScript RegExp for the fixed patterns; RE2 for the organization's linkifiers. */
  regex: RegExp | LinkifierRegex;
  render: (state: InlineState, m: RegExpExecArray, inner: (text: string) => string) => string | null | { html: string; after: string };
  /** Not applied inside a link's label (no links within links). */
  makesLink?: boolean;
};

const userMention = (state: InlineState, m: RegExpExecArray): string | null => {
  const silent = m[1] === '_';
  const name = m[2];
  const cls = silent ? ' silent' : '';
  if (CHANNEL_WILDCARDS.has(name)) {
    if (!silent) state.channelWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${cls}" data-user-id="*">${silent ? '' : '@'}${state.escape(name)}</span>`;
  }
  if (name === 'topic') {
    if (!silent) state.topicWildcard = true;
    return `<span class="topic-mention${cls}">${silent ? '' : '@'}${state.escape(name)}</span>`;
  }
  let user: RenderUser | undefined;
  const withId = /^(.*)\|(\d+)$/s.exec(name);
  if (withId) {
    const id = Number(withId[2]);
    addOnce(state.references.userIds, id);
    user = state.usersById.get(id);
    // The name, when given, must be that user's name exactly.
    if (user && withId[1] !== '' && withId[1] !== user.fullName) user = undefined;
  } else {
    addOnce(state.references.userNames, name);
    const matches = state.usersByName.get(name.toLowerCase()) ?? [];
    // Two users with this name: ambiguous, so no mention (the |id form says which one).
    user = matches.length === 1 ? matches[0] : undefined;
  }
  if (!user) return null;
  // A deactivated user's mention is shown as silent and notifies nobody.
  const quiet = silent || !user.isActive;
  if (!quiet) state.mentionedUserIds.add(user.id);
  return `<span class="user-mention${quiet ? ' silent' : ''}" data-user-id="${user.id}">${quiet ? '' : '@'}${state.escape(user.fullName)}</span>`;
};

const groupMention = (state: InlineState, m: RegExpExecArray): string | null => {
  const silent = m[1] === '_';
  addOnce(state.references.groupNames, m[2]);
  const group = state.groupsByName.get(m[2].toLowerCase());
  if (!group) return null;
  const quiet = silent || group.deactivated;
  if (!quiet) state.mentionedGroupIds.add(group.id);
  return `<span class="user-group-mention${quiet ? ' silent' : ''}" data-user-group-id="${group.id}">${quiet ? '' : '@'}${state.escape(group.name)}</span>`;
};

const topicLabel = (state: InlineState, c: RenderChannel, topic: string): string =>
  `#${state.escape(c.name)} &gt; ${topic === '' ? '<em>general chat</em>' : state.escape(topic)}`;

const channelLink = (state: InlineState, m: RegExpExecArray): string | null => {
  addOnce(state.references.channelNames, m[1]);
  const c = state.channelsByName.get(m[1]);
  if (!c) return null;
  state.hasLink = true;
  return `<a class="stream" data-stream-id="${c.id}" href="${escapeAttribute(channelUrl(c))}">#${state.escape(c.name)}</a>`;
};

const topicLink = (state: InlineState, m: RegExpExecArray): string | null => {
  const [, channelName, topic] = m;
  addOnce(state.references.channelNames, channelName);
  if (!state.references.topics.some((t) => t.channelName === channelName && t.topic === topic))
    state.references.topics.push({ channelName, topic });
  const c = state.channelsByName.get(channelName);
  if (!c) return null;
  state.hasLink = true;
  const latest = state.latestInTopic.get(topicKey(c.id, topic));
  const href = topicUrl(c, topic) + (latest === undefined ? '' : `/with/${latest}`);
  return `<a class="stream-topic" data-stream-id="${c.id}" href="${escapeAttribute(href)}">${topicLabel(state, c, topic)}</a>`;
};

const messageLink = (state: InlineState, m: RegExpExecArray): string | null => {
  const [, channelName, topic, messageId] = m;
  addOnce(state.references.channelNames, channelName);
  const c = state.channelsByName.get(channelName);
  if (!c) return null;
  state.hasLink = true;
  const href = `${topicUrl(c, topic)}/near/${messageId}`;
  return `<a class="message-link" href="${escapeAttribute(href)}">${topicLabel(state, c, topic)} @ 💬</a>`;
};

/** upstream's URL sanitizing: a fixed set of schemes; no scheme means http (or a local path). */
const sanitizeUrl = (url: string): string | null => {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return url.startsWith('/') || url.startsWith('#') ? url : `http://${url}`;
  return ['http', 'https', 'ftp', 'mailto', 'file', 'tel', 'sms'].includes(scheme) ? url : null;
};

// Image previews, as upstream's inline image preview renders them (without fetching anything):
// a link whose path ends in an image extension gets a message_inline_image div after its block,
// the image through upstream's /thumbnail URL, the link's label (if it has one) as the title.
const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];
/** The most images one message previews (upstream's limit of inline previews per message). */
const MAX_PREVIEWS = 24;

const isImageUrl = (href: string): boolean => {
  if (!/^(?:https?:\/\/|\/|user_uploads\/)/i.test(href)) return false;
  let url: URL;
  try {
    url = new URL(href, 'http://relative.invalid/');
  } catch {
    return false;
  }
  // pasteboard.co's page URLs end in an image extension but are pages.
  if (url.hostname === 'pasteboard.co') return false;
  const path = url.pathname.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext));
};

/** Python's urllib.parse.quote(text, safe=''): everything but letters, digits and _.-~ escaped. */
const quoteAll = (text: string): string =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const previewHtml = ({ href, title }: { href: string; title: string | undefined }): string => {
  const thumbnail = (size: string) => `/thumbnail?url=${quoteAll(href)}&amp;size=${size}`;
  const titleAttr = title === undefined ? '' : ` title="${escapeAttribute(title)}"`;
  return `<div class="message_inline_image"><a href="${escapeAttribute(href)}"${titleAttr}><img data-src-fullsize="${thumbnail('full')}" src="${thumbnail('thumbnail')}"></a></div>`;
};

/**
 * The preview divs of the image links rendered since the last call (each URL once a message);
 * `keep` false drops them (links in a block quote get no preview).
 */
export const takePreviews = (state: InlineState, keep: boolean): string[] => {
  const links = state.imageLinks;
  state.imageLinks = [];
  if (!keep) return [];
  return links.flatMap((l) => {
    if (state.previewed.has(l.href) || state.previewed.size >= MAX_PREVIEWS) return [];
    state.previewed.add(l.href);
    return [previewHtml(l)];
  });
};

/**
 * A link into the organization's own views or uploads (`<realm URL>/#…`, `<realm URL>/user_uploads/…`)
 * made relative, as upstream does, so that it opens in the same client.
 */
const localLink = (state: InlineState, href: string): string => {
  if (state.realmUrl === undefined) return href;
  const prefix = `${state.realmUrl}/`;
  return href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`) ? href.slice(prefix.length) : href;
};

const link = (state: InlineState, m: RegExpExecArray, inner: (text: string) => string): string | null => {
  const sanitized = sanitizeUrl(m[2]);
  const href = sanitized === null ? null : localLink(state, sanitized);
  if (href === null || m[2] === '') return null;
  state.hasLink = true;
  if (!state.profileFlavour && isImageUrl(href)) state.imageLinks.push({ href, title: m[1].trim() === '' ? undefined : m[1] });
  const label = m[1].trim() === '' ? state.escape(m[2]) : inner(m[1]);
  return `<a href="${escapeAttribute(href)}">${label}</a>`;
};

// Bare URLs in messages, as upstream's web-link pattern finds them: after the start, a space or
// one of '"(,: and <, a URL with a scheme, or a domain whose last label is a known top-level
// domain (the IANA list of the `tlds` package, as upstream's; less the file extensions upstream
// leaves alone), with an optional path that may hold balanced parentheses (seven levels deep), or
// an email address; it must be followed by sentence punctuation and then a space or the end,
// which stay outside the link.
const NOT_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);
const TLD_ALTERNATIVES = tlds
  .filter((t) => !NOT_TLDS.has(t))
  .sort((a, b) => b.length - a.length)
  .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
const NO_PARENS = `[^\\s()"\\uE000-\\uE01F]`;
const PAREN_PATH = Array.from({ length: 7 }).reduce<string>((inner) => `${NO_PARENS}*?(?:\\(${inner}\\)${NO_PARENS}*?)*`, `${NO_PARENS}*`);
const WEB_LINK = new RegExp(
  `(?<![^\\s'"(,:<])(?:(?:(?:https?|ftp):\\/\\/[\\w.:@-]+?|(?:[\\w-]+\\.)+(?:${TLD_ALTERNATIVES}))(?:\\/${PAREN_PATH})?|[\\w.-]+@[\\w.-]+\\.\\w+)(?=[!:;?),.'">]*(?:$|\\s))`,
  'gi',
);

// The profile-field flavour (renderPlainMarkdown) links any http(s) URL up to a space, quote or
// angle bracket, leaving trailing punctuation (and the ** of bold around it) outside.
const LENIENT_WEB_LINK = /(?<![^\s'"(,:<*~])https?:\/\/[^\s<>"\uE000-\uE01F]+/gi;
const splitTrailingPunctuation = (url: string): [string, string] => {
  const match = /[.,;:!?)\]'*~]+$/.exec(url);
  return match ? [url.slice(0, match.index), match[0]] : [url, ''];
};

const autolink = (state: InlineState, m: RegExpExecArray): { html: string; after: string } | null => {
  const [url, rest] = state.profileFlavour ? splitTrailingPunctuation(m[0]) : [m[0], ''];
  if (/^(?:https?|ftp):\/\/$/i.test(url)) return null;
  state.hasLink = true;
  const href = localLink(state, /^(?:https?|ftp):\/\//i.test(url) ? url : /^[^:/]+@/.test(url) ? `mailto:${url}` : `http://${url}`);
  if (!state.profileFlavour && isImageUrl(href)) state.imageLinks.push({ href, title: undefined });
  // Trailing punctuation stays text, for the patterns after this one (a closing ** of bold).
  return { html: `<a href="${escapeAttribute(href)}">${state.escape(url)}</a>`, after: rest };
};

const PATTERNS: Pattern[] = [
  // Inline code: the text as written, spaces kept.
  { regex: /(?<!\\)(`+)(.+?)(?<!`)\1(?!`)/g, render: (s, m) => `<code>${s.escape(m[2])}</code>` },
  // Inline TeX (upstream's): $$…$$ on one line, not starting with _ (the $$_$$ smiley), not next to
  // a third $; what KaTeX refuses shows as typed in a tex-error span.
  {
    regex: /\B(?<!\$)\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)\B/g,
    render: (s, m) => (s.rich ? (renderTex(m[1], false) ?? `<span class="tex-error">${s.escape(m[0])}</span>`) : null),
  },
  // <time:…>: an HTML5 time in UTC, its text as typed; upstream's timestamp-error when it is not a time.
  {
    regex: /<time:([^>]*?)>/g,
    render: (s, m) => {
      const datetime = timestampDatetime(m[1]);
      if (datetime === undefined) return `<span class="timestamp-error">Invalid time format: ${s.escape(m[1])}</span>`;
      return `<time datetime="${datetime}">${s.escape(m[1])}</time>`;
    },
  },
  { regex: /\*\*\*(?!\s)([^*\n]+)(?<!\s)\*\*\*/g, render: (_s, m, inner) => `<strong><em>${inner(m[1])}</em></strong>` },
  { regex: /(?<![^\s'"({[/<])@(_?)\*\*([^*]+)\*\*/g, render: userMention, makesLink: true },
  { regex: /(?<![^\s'"(,:<])#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/g, render: messageLink, makesLink: true },
  { regex: /(?<![^\s'"(,:<])#\*\*([^*>]+)>([^*]*)\*\*/g, render: topicLink, makesLink: true },
  { regex: /(?<![^\s'"(,:<])#\*\*([^*]+)\*\*/g, render: channelLink, makesLink: true },
  { regex: /(?<![^\s'"({[/<])@(_?)\*([^*]+)\*/g, render: groupMention, makesLink: true },
  { regex: /\[([^\]\n]*)\]\(\s*<?([^\s()<>"\uE000-\uE01F]*)>?\s*\)/g, render: link, makesLink: true },
  // Replaced by the flavour's web-link pattern (see patternsFor).
  { regex: WEB_LINK, render: autolink, makesLink: true },
];

// After the linkifiers (which run between autolinks and entities, in their order).
const LATE_PATTERNS: Pattern[] = [
  // An HTML entity the author typed stays an entity.
  { regex: /&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);/g, render: (_s, m) => m[0] },
  { regex: /\*\*([^\n]+?)\*\*/g, render: (_s, m, inner) => `<strong>${inner(m[1])}</strong>` },
  { regex: /\*(?!\s)([^*\n]+)(?<!\s)\*/g, render: (_s, m, inner) => `<em>${inner(m[1])}</em>` },
  { regex: /(?<!~)~~([^~\n]+?)~~(?!~)/g, render: (_s, m, inner) => `<del>${inner(m[1])}</del>` },
];

/**
 * An emoji as upstream's make_emoji writes it: the code in the class, the name (underscores as
 * spaces) as title and label, and the text shown (`:name:` as typed, or the canonical name).
 */
const emojiSpan = (code: string, display: string): string => {
  const title = escapeAttribute(display.slice(1, -1).replace(/_/g, ' '));
  return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">${escapeText(display)}</span>`;
};

// `:name:` (upstream's EMOJI_REGEX, Python's Unicode \w): an active custom emoji of the
// organization (as upstream's make_realm_emoji: its image, the name with spaces for underscores as
// title), else a Unicode emoji by any of its names, or Zulip's extra emoji; any other name stays text.
const emojiName = (s: InlineState, m: RegExpExecArray): string | null => {
  const name = m[1];
  addOnce(s.references.emojiNames, name);
  const custom = s.realmEmojiByName.get(name);
  if (custom !== undefined)
    return `<img alt="${escapeAttribute(m[0])}" class="emoji" src="${escapeAttribute(custom.sourceUrl)}" title="${escapeAttribute(name.replace(/_/g, ' '))}">`;
  const code = unicodeEmojiCode(name);
  if (code !== undefined) return emojiSpan(code, m[0]);
  if (isZulipExtraEmoji(name))
    return `<img alt=":${name}:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/${name}.png" title="${name}">`;
  return null;
};

// A run of characters that may hold Unicode emoji; each emoji upstream names in it becomes a span
// showing its canonical name, the rest of the run stays text (null: the run has none).
const unicodeEmoji = (s: InlineState, m: RegExpExecArray): string | null => {
  const run = m[0];
  const named = unicodeEmojiIn(run).filter((e) => e.code !== undefined);
  if (named.length === 0) return null;
  let html = '';
  let last = 0;
  for (const e of named) {
    html += s.escape(run.slice(last, e.index)) + emojiSpan(e.code!, `:${unicodeEmojiNames(e.code!)![0]}:`);
    last = e.index + e.text.length;
  }
  return html + s.escape(run.slice(last));
};

// An emoticon (upstream's EMOTICON_RE) between the start or end of the text and one of the
// symbols that end a word in upstream's composebox (`,.;?!()[] "'`, whitespace), for a sender who
// asked for the translation.
const EMOTICON_BOUNDARY = `,.;?!()\\[\\] "'\\n\\t`;
const EMOTICON = new RegExp(
  `(?<![^${EMOTICON_BOUNDARY}])(?:${[...EMOTICON_CONVERSIONS.keys()].map((e) => e.replace(/[()|]/g, '\\$&')).join('|')})(?![^${EMOTICON_BOUNDARY}])`,
  'g',
);
const emoticon = (s: InlineState, m: RegExpExecArray): string | null => {
  if (!s.translateEmoticons) return null;
  const name = EMOTICON_CONVERSIONS.get(m[0])!;
  return emojiSpan(unicodeEmojiCode(name)!, `:${name}:`);
};

const EMOJI_PATTERNS: Pattern[] = [
  { regex: /:([\p{L}\p{N}_+-]+):/gu, render: emojiName },
  { regex: EMOTICON, render: emoticon },
  { regex: /[\p{Emoji}\p{Emoji_Component}]+/gu, render: unicodeEmoji },
];

const linkifierPatterns = (state: InlineState): Pattern[] =>
  state.linkifiers.map(({ regex, urlTemplate }) => ({
    regex,
    makesLink: true,
    render: (s, m) => {
      s.hasLink = true;
      return `<a href="${escapeAttribute(linkifierUrl(urlTemplate, m.groups ?? {}))}">${s.escape(m[0])}</a>`;
    },
  }));

const hold = (state: InlineState, html: string): string => `\uE000${encodeIndex(state.held.push(html) - 1)}\uE001`;

/** Escapes the plain text between placeholders, turns newlines into <br>, then puts the held HTML back. */
const finish = (state: InlineState, text: string): string => {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    out += state.escape(text.slice(last, m.index)).replace(/\n/g, '<br>\n') + state.held[decodeIndex(m[1])];
    last = m.index! + m[0].length;
  }
  return out + state.escape(text.slice(last)).replace(/\n/g, '<br>\n');
};

/** Replaces every match of a pattern's expression, as String.prototype.replace with a global RegExp. */
const replaceMatches = (text: string, regex: Pattern['regex'], replace: (m: RegExpExecArray) => string): string => {
  if (regex instanceof RegExp)
    return text.replace(regex, (...args) => {
      const groupsArg = args[args.length - 1];
      const hasGroups = typeof groupsArg === 'object' && groupsArg !== null;
      const offset = args[args.length - (hasGroups ? 3 : 2)] as number;
      const m = Object.assign([...args.slice(0, args.length - (hasGroups ? 3 : 2))] as string[], {
        index: offset,
        input: text,
        groups: hasGroups ? (groupsArg as Record<string, string>) : undefined,
      }) as RegExpExecArray;
      return replace(m);
    });
  let out = '';
  let last = 0;
  for (const { index, text: matched, groups } of regex.matchAll(text)) {
    out += text.slice(last, index) + replace(Object.assign([matched], { index, input: text, groups }) as RegExpExecArray);
    last = index + matched.length;
  }
  return out + text.slice(last);
};

const applyFrom = (state: InlineState, patterns: Pattern[], start: number, text: string, inLink: boolean): string => {
  let out = text;
  for (let i = start; i < patterns.length; i += 1) {
    const p = patterns[i];
    if (inLink && p.makesLink) continue;
    const linkLabel = p.render === link;
    out = replaceMatches(out, p.regex, (m) => {
      const html = p.render(state, m, (inner) => finish(state, applyFrom(state, patterns, i + 1, inner, inLink || linkLabel)));
      if (html === null) return m[0];
      return typeof html === 'string' ? hold(state, html) : hold(state, html.html) + html.after;
    });
  }
  return out;
};

/** The HTML of one block's inline text (already stripped of placeholder characters). */
export const renderInline = (state: InlineState, text: string): string => {
  const early = state.profileFlavour ? PATTERNS.map((p) => (p.render === autolink ? { ...p, regex: LENIENT_WEB_LINK } : p)) : PATTERNS;
  const patterns = [...early, ...linkifierPatterns(state), ...LATE_PATTERNS, ...(state.rich ? EMOJI_PATTERNS : [])];
  return finish(state, applyFrom(state, patterns, 0, text, false));
};
