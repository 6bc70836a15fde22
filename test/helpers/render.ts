// The renderer as the render tests call it: renderMessage's HTML, for an organization with no
// users, groups, channels or linkifiers unless a test passes its own.
import { renderMessage, type RenderInput } from '../../lib/render';

/** An organization with nothing to refer to: mentions, channel links and linkifiers stay text. */
export const NO_REFERENCES: RenderInput = { users: [], groups: [], channels: [], linkifiers: [] };

/** The HTML renderMessage stores for `content`. */
export const renderHtml = (content: string, input: RenderInput = NO_REFERENCES): string => renderMessage(content, input).html;
