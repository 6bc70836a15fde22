// The one Markdown renderer: message content (with mentions, channel and topic links and the
// organization's linkifiers) and short profile-field texts (lib/markdown.ts) both render here.
// Pure: everything it needs from the organization comes in a RenderInput the caller built, and
// referencesIn() says what that input must contain, so a caller can load it in one batch.
//
// Not rendered (left as the text typed): emoji (:name: and Unicode emoji), TeX ($$…$$ and ```math),
// <time:…> timestamps, tables, image previews, bare domains without a scheme or www. (upstream
// links those of known top-level domains); code blocks are not highlighted.
import { renderBlocks } from './blocks';
import { type InlineState, newInlineState, PLACEHOLDER_CHARS, renderInline } from './inline';
import type { RenderInput, RenderReferences, RenderResult } from './types';

export * from './types';

const NO_INPUT: RenderInput = { users: [], groups: [], channels: [], linkifiers: [] };

const renderWith = (content: string, state: InlineState): string => {
  const lines = content.replace(PLACEHOLDER_CHARS, '').replace(/\r\n?/g, '\n').split('\n');
  return renderBlocks(lines, (text) => renderInline(state, text)).join('\n');
};

/** Renders message content to upstream's HTML, with what the send path needs for flags. */
export const renderMessage = (content: string, input: RenderInput): RenderResult => {
  const state = newInlineState(input);
  const html = renderWith(content, state);
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

/** The user names and ids, group names, channels and topics the content refers to (outside code). */
export const referencesIn = (content: string): RenderReferences => renderMessage(content, NO_INPUT).references;

/**
 * Renders text with no organization data (no mentions or links resolve) in the flavour
 * profile-field values have always been stored in: quotes in text escaped, bare URLs linked
 * wherever they end (see lib/markdown.ts).
 */
export const renderPlainMarkdown = (content: string): string => renderWith(content, newInlineState(NO_INPUT, true));

export { topicLinks, type TopicLink } from './topic-links';
