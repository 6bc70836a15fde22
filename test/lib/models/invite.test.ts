import { isValidEmailAddress, parseInviteeEmails } from '../../../lib/models/invite';

describe('parseInviteeEmails (upstream get_invitee_emails_set)', () => {
  it('splits at commas and newlines, reduces "Name <address>" to the address, trims, and keeps each once', () => {
    expect(parseInviteeEmails('a@example.com, Bee <b@example.com>\n c@example.com ,a@example.com')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('keeps an empty entry, which the caller counts but skips', () => {
    expect(parseInviteeEmails('a@example.com,')).toEqual(['a@example.com', '']);
  });
});

describe('isValidEmailAddress', () => {
  it.each(['a@example.com', 'first.last+tag@sub.example.org', 'x@localhost', '"quoted name"@example.com'])('accepts %s', (email) => {
    expect(isValidEmailAddress(email)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a b@example.com',
    'a..b@example.com',
    'a@-example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
  ])('refuses %j', (email) => {
    expect(isValidEmailAddress(email)).toBe(false);
  });
});
