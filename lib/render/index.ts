// The one Markdown renderer: message content (with mentions, channel and topic links and the
// organization's linkifiers) and short profile-field texts (renderPlainMarkdown) both render here.
// Pure: everything it needs from the organization comes in a RenderInput the caller built, and
// referencesIn() says what that input must contain, so a caller can load it in one batch.
//
// Emoji (`:name:` and Unicode emoji) render as upstream's spans, by upstream's names (lib/emoji);
// `:name:` of an active custom emoji of the organization (RenderInput.realmEmoji) as its image.
// Deliberate difference: a span is some 100 bytes and a KaTeX formula some 400 or more, so a
// message of thousands of emoji or formulas would not fit the one DynamoDB item (400 KB) that
// holds its content and HTML; where the HTML with emoji spans and TeX would pass
// MAX_HTML_BYTES_RICH, the content renders with its emoji and TeX left as typed (a math block as code).
// Emoticons (`:)`) become emoji for a sender whose translate_emoticons setting is on.
// TeX ($$…$$ and ```math) renders through KaTeX (tex.ts), <time:…> as upstream's <time> (timestamp.ts),
// tables, spoilers and nested quotes as upstream's fence rules; bare domains of known top-level
// domains are linked. Measured against upstream's own test data: test/lib/render/upstream-cases.test.ts
// (what still differs, and why: upstream-differences.ts). Code blocks of a language Pygments knows
// show its name, and get Pygments' token spans where a grammar is loaded for it (highlight.ts).
import { renderBlocks } from './blocks';
import { type InlineState, newInlineState, PLACEHOLDER_CHARS, renderInline, takePreviews } from './inline';
import type { RenderInput, RenderReferences, RenderResult } from './types';

export * from './types';

const NO_INPUT: RenderInput = { users: [], groups: [], channels: [], linkifiers: [] };

const renderWith = (content: string, state: InlineState): string => {
  const lines = content.replace(PLACEHOLDER_CHARS, '').replace(/\r\n?/g, '\n').split('\n');
  const inline = Object.assign((text: string) => renderInline(state, text), {
    previews: () => takePreviews(state, inline.quoteDepth === 0),
    quoteDepth: 0,
    rich: state.rich,
  });
  return renderBlocks(lines, inline).join('\n');
};

/** The most HTML, in UTF-8 bytes, that emoji spans and TeX may bring a rendering to (see the header). */
export const MAX_HTML_BYTES_RICH = 200_000;

/** Renders with emoji spans and TeX unless that makes the HTML too large to store; then without them. */
const renderStored = (content: string, stateFor: (rich: boolean) => InlineState): { html: string; state: InlineState } => {
  const state = stateFor(true);
  const html = renderWith(content, state);
  if (Buffer.byteLength(html) <= MAX_HTML_BYTES_RICH) return { html, state };
  const plain = stateFor(false);
  return { html: renderWith(content, plain), state: plain };
};

/** Renders message content to upstream's HTML, with what the send path needs for flags. */
export const renderMessage = (content: string, input: RenderInput): RenderResult => {
  const { html, state } = renderStored(content, (rich) => newInlineState(input, false, rich));
  return {
    html,
    mentionedUserIds: [...state.mentionedUserIds],
    mentionedGroupIds: [...state.mentionedGroupIds],
    channelWildcardMentioned: state.channelWildcard,
    topicWildcardMentioned: state.topicWildcard,
    hasLink: state.hasLink,
    references: state.references,
  };
};

/**
 * The user names and ids, group names, channels, topics and `:emoji:` names the content refers to
 * (outside code). Emoji patterns run too, as in the rendering itself, so that the names are seen.
 */
export const referencesIn = (content: string): RenderReferences => {
  const state = newInlineState(NO_INPUT, false, true);
  renderWith(content, state);
  return state.references;
};

/**
 * Renders text with no organization data (no mentions or links resolve) in the flavour
 * profile-field values have always been stored in: quotes in text escaped, bare URLs linked
 * wherever they end. Short user text (custom profile field values, channel descriptions, reminder
 * previews) renders with it: mentions and channel links stay text.
 */
export const renderPlainMarkdown = (content: string): string => renderStored(content, (rich) => newInlineState(NO_INPUT, true, rich)).html;

export { topicLinks, type TopicLink } from './topic-links';
