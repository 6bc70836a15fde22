// The rules on a message's text that every writer of messages shares (drafts, reminders, and the
// messaging core): upstream's MAX_MESSAGE_LENGTH, normalize_body and truncate_content. Lengths are
// counted in characters (Unicode code points), as Python's len() counts them, never in UTF-16 units,
// so a truncation never cuts a character such as an emoji in half.
import { BadRequestError } from '../errors';
import { str, string, type Validator } from '../validation/validators';

/** Upstream's MAX_MESSAGE_LENGTH: longer content is truncated. */
export const MAX_MESSAGE_LENGTH = 10000;
/** What upstream appends to truncated message content. */
const MESSAGE_TRUNCATED = '\n[message truncated]';
/** What upstream appends to a truncated topic. */
const TOPIC_TRUNCATED = '...';

// Python's str.strip() whitespace (str.isspace), which upstream's pydantic models and
// normalize_body use: JavaScript's trim() differs at the edges (\x1c-\x1f, \x85, \ufeff).
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING_SPACE = new RegExp(`[${PY_SPACE}]+$`);

/** Python's str.strip(). */
export const pyStrip = (text: string): string => text.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');

/**
 * Upstream's StringConstraints(min_length=1, max_length, strip_whitespace=True): stripped first,
 * then "<name> cannot be blank" or "<name> is too long (limit: N characters)".
 */
export const strippedText =
  (maxLength: number): Validator<string> =>
  (value, path) =>
    string({ minLength: 1, maxLength })(pyStrip(str(value, path)), path);

/** The length of a text in characters (code points), as Python's len(). */
export const charLength = (text: string): number => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

/** Upstream's truncate_content: at most `maxLength` characters, the marker included when it cuts. */
const truncateContent = (text: string, maxLength: number, marker: string): string => {
  if (charLength(text) <= maxLength) return text;
  return (
    Array.from(text)
      .slice(0, maxLength - charLength(marker))
      .join('') + marker
  );
};

/** Message content cut to MAX_MESSAGE_LENGTH (or a smaller room) with upstream's marker. */
export const truncateMessageContent = (content: string, maxLength = MAX_MESSAGE_LENGTH): string =>
  truncateContent(content, maxLength, MESSAGE_TRUNCATED);

/** Upstream's truncate_topic: the organization's topic length limit, with "..." when it cuts. */
const truncateTopic = (topic: string, maxTopicLength: number): string => truncateContent(topic, maxTopicLength, TOPIC_TRUNCATED);

/** Trailing whitespace and leading newlines go, as upstream's normalize_body and normalize_note_text do. */
export const stripBody = (body: string): string => body.replace(TRAILING_SPACE, '').replace(/^\n+/, '');

/** Upstream's normalize_body: stripped, not empty, no null bytes, then truncated to MAX_MESSAGE_LENGTH. */
export const normalizeMessageContent = (body: string): string => {
  const content = stripBody(body);
  if (content.length === 0) throw new BadRequestError('Message must not be empty');
  if (content.includes('\0')) throw new BadRequestError('Message must not contain null bytes');
  return truncateMessageContent(content);
};

/** A topic as a channel message stores it: truncated, then refused if it holds a null byte. */
export const normalizeTopic = (topic: string, maxTopicLength: number): string => {
  const truncated = truncateTopic(topic, maxTopicLength);
  if (truncated.includes('\0')) throw new BadRequestError('Topic must not contain null bytes');
  return truncated;
};
