// lib/models/message-content.ts: upstream's normalize_body and truncate_content, counting code points.
import { MAX_MESSAGE_LENGTH, normalizeMessageContent, normalizeTopic, truncateMessageContent } from '../../../lib/models/message-content';

const MARKER = '\n[message truncated]';

describe('truncateMessageContent', () => {
  it('keeps content of exactly MAX_MESSAGE_LENGTH characters, emoji counting as one each', () => {
    const content = '😀'.repeat(MAX_MESSAGE_LENGTH);
    expect(truncateMessageContent(content)).toBe(content);
  });

  it('cuts one character over the limit to whole emoji plus the marker, MAX_MESSAGE_LENGTH characters in all', () => {
    const cut = truncateMessageContent('😀'.repeat(MAX_MESSAGE_LENGTH + 1));
    expect(cut).toBe('😀'.repeat(MAX_MESSAGE_LENGTH - MARKER.length) + MARKER);
    expect([...cut]).toHaveLength(MAX_MESSAGE_LENGTH);
  });

  it('cuts before an emoji that would straddle the boundary rather than through it', () => {
    const text = `ab😀${'c'.repeat(40)}`;
    expect(truncateMessageContent(text, 3 + MARKER.length)).toBe(`ab😀${MARKER}`);
    expect(truncateMessageContent(text, 2 + MARKER.length)).toBe(`ab${MARKER}`);
  });
});

describe('normalizeMessageContent', () => {
  it('strips trailing whitespace and leading newlines, keeping leading spaces', () => {
    expect(normalizeMessageContent('\n\n  indented\t \n')).toBe('  indented');
  });

  it.each([
    ['blank content', ' \n\t', 'Message must not be empty'],
    ['a null byte', 'a\0b', 'Message must not contain null bytes'],
  ])('refuses %s', (_label, content, message) => {
    expect(() => normalizeMessageContent(content)).toThrow(message);
  });
});

describe('normalizeTopic', () => {
  it('cuts a long topic to the limit in characters with "..."', () => {
    expect(normalizeTopic('🐙'.repeat(61), 60)).toBe(`${'🐙'.repeat(57)}...`);
  });

  it('refuses a null byte', () => {
    expect(() => normalizeTopic('a\0', 60)).toThrow('Topic must not contain null bytes');
  });
});
