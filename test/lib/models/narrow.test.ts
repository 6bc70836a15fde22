// lib/models/narrow.ts: the one definition that parses, validates and matches a narrow.
import { checkEventNarrow, matchesEventNarrow, narrowTerm, type NarrowedMessage } from '../../../lib/models/event-narrow';

const channelMessage: NarrowedMessage = { type: 'stream', display_recipient: 'Verona', subject: 'Test', sender_email: 'iago@zulip.com' };
const directMessage: NarrowedMessage = { type: 'private', display_recipient: [], subject: '', sender_email: 'hamlet@zulip.com' };

describe('narrowTerm', () => {
  it('reads a legacy pair as a term that is not negated', () => {
    expect(narrowTerm(['stream', 'Verona'], 'narrow[0]')).toEqual({ operator: 'stream', operand: 'Verona', negated: false });
  });

  it('reads an object with or without negated', () => {
    expect(narrowTerm({ operator: 'is', operand: 'dm', negated: true }, 'narrow[0]')).toEqual({
      operator: 'is',
      operand: 'dm',
      negated: true,
    });
    expect(narrowTerm({ operator: 'is', operand: 'dm' }, 'narrow[0]')).toEqual({ operator: 'is', operand: 'dm', negated: false });
  });

  it.each([
    [['stream'], 'Invalid narrow[0]'],
    [['stream', 3], 'narrow[0][1] is not a string'],
    [{ operator: 'stream' }, 'narrow[0]["operand"] field is missing: Field required'],
  ])('refuses %j with "%s"', (value, message) => {
    expect(() => narrowTerm(value, 'narrow[0]')).toThrow(message);
  });
});

describe('checkEventNarrow', () => {
  it('keeps the terms an event queue can filter on as [operator, operand] pairs', () => {
    const terms = [narrowTerm(['channel', 'Verona'], 'n'), narrowTerm(['topic', 'Test'], 'n'), narrowTerm(['is', 'alerted'], 'n')];
    expect(checkEventNarrow(terms)).toEqual([
      ['channel', 'Verona'],
      ['topic', 'Test'],
      ['is', 'alerted'],
    ]);
  });

  it.each([
    [['dm', 'hamlet@zulip.com'], 'Operator dm not supported.'],
    [['search', 'x'], 'Operator search not supported.'],
    [['constructor', 'x'], 'Operator constructor not supported.'],
    [['is', 'unread'], 'Operand unread not supported.'],
  ])('refuses %j with "%s", as upstream', (pair, message) => {
    expect(() => checkEventNarrow([narrowTerm(pair, 'n')])).toThrow(message);
  });
});

describe('matchesEventNarrow', () => {
  it('matches a channel and topic case-insensitively, under either name of the channel operator', () => {
    expect(
      matchesEventNarrow(
        [
          ['stream', 'verona'],
          ['topic', 'TEST'],
        ],
        channelMessage,
        [],
      ),
    ).toBe(true);
    expect(matchesEventNarrow([['channel', 'Denmark']], channelMessage, [])).toBe(false);
  });

  it('matches is:dm and is:private only for direct messages', () => {
    expect(matchesEventNarrow([['is', 'dm']], directMessage, [])).toBe(true);
    expect(matchesEventNarrow([['is', 'private']], channelMessage, [])).toBe(false);
  });

  it("matches flags from the receiver's flags, is:alerted meaning has_alert_word", () => {
    expect(matchesEventNarrow([['is', 'starred']], channelMessage, ['starred'])).toBe(true);
    expect(matchesEventNarrow([['is', 'alerted']], channelMessage, ['has_alert_word'])).toBe(true);
    expect(matchesEventNarrow([['is', 'mentioned']], channelMessage, ['read'])).toBe(false);
  });

  it('matches the sender by email, and everything with an empty narrow', () => {
    expect(matchesEventNarrow([['sender', 'IAGO@zulip.com']], channelMessage, [])).toBe(true);
    expect(matchesEventNarrow([], directMessage, [])).toBe(true);
  });
});
