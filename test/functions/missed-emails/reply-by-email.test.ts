import { doReceiveEmail, replyText } from '../../../lib/actions/missed-emails/reply-by-email';
import { advanceClock, freezeClock } from '../../../lib/clock';
import type { User } from '../../../lib/models/user';
import { listLocalSentEmails } from '../../../lib/store/emails';
import { settleJobs } from '../../../lib/store/jobs';
import * as messagesStore from '../../../lib/store/messages';
import { sendMessageId } from '../../helpers/messages';
import { HAMLET, newMember, passTime, VERONA } from './helpers';

// Addresses of this file only: the local SES store is shared by every test file of the run.
const DOMAIN = 'replies.example.com';
const GATEWAY = 'gateway.example.com';

const newUser = (): Promise<User> => newMember(DOMAIN, 'Email Replier');

/** The Reply-To of the missed-message email `reader` got about `subject`. */
const replyToOf = async (reader: User, subject: string): Promise<string> => {
  const email = ((await listLocalSentEmails()) ?? []).find((e) => e.to.includes(reader.email) && e.subject === subject);
  expect(email?.replyTo).toHaveLength(1);
  return email!.replyTo[0];
};

const eml = (from: string, to: string, body: string): Buffer =>
  Buffer.from(
    [
      `From: ${from}`,
      `To: ${to}`,
      'Subject: Re: your messages',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
    ].join('\r\n'),
  );

const QUOTED = [
  'Sounds good, see you there.',
  '',
  'On Mon, Jun 3, 2030 at 9:02 AM Zulip notifications <noreply@localhost> wrote:',
  '> Meet at noon?',
  '> ',
].join('\r\n');

beforeAll(() => {
  process.env.EMAIL_GATEWAY_PATTERN = `%s@${GATEWAY}`;
});
afterAll(() => {
  delete process.env.EMAIL_GATEWAY_PATTERN;
});
beforeEach(() => freezeClock(Date.UTC(2030, 5, 3, 9, 0, 0)));

describe('reply by email', () => {
  it('posts the reply without its quoted part as the recipient into the direct-message conversation', async () => {
    const reader = await newUser();
    await sendMessageId(HAMLET, { type: 'direct', to: JSON.stringify([reader.id]), content: 'Meet at noon?' });
    await passTime(121);
    const replyTo = await replyToOf(reader, 'DMs with King Hamlet');
    expect(replyTo).toMatch(new RegExp(`^mm[0-9a-f]{32}@${GATEWAY.replace(/\./g, '\\.')}$`));
    const id = await doReceiveEmail(eml(reader.email, replyTo, QUOTED));
    await settleJobs();
    const posted = await messagesStore.getMessage(2, id!, { consistent: true });
    expect(posted).toMatchObject({ senderId: reader.id, content: 'Sounds good, see you there.', streamId: null });
    expect(posted!.dmUserIds).toEqual([10, reader.id].sort((a, b) => a - b));
  });

  it("posts into the channel message's topic", async () => {
    const reader = await newUser();
    await sendMessageId(HAMLET, { type: 'stream', to: VERONA, topic: 'by email', content: `@**${reader.fullName}** thoughts?` });
    await passTime(121);
    const replyTo = await replyToOf(reader, '#Verona > by email');
    const id = await doReceiveEmail(eml(reader.email, replyTo, 'Yes.\r\n\r\n--\r\nSent from my phone'));
    expect(await messagesStore.getMessage(2, id!, { consistent: true })).toMatchObject({
      senderId: reader.id,
      streamId: VERONA,
      topic: 'by email',
      content: 'Yes.',
    });
  });

  it('drops a forged, an unknown-format or an expired address with a log line, posting nothing', async () => {
    const reader = await newUser();
    await sendMessageId(HAMLET, { type: 'direct', to: JSON.stringify([reader.id]), content: 'Expiring' });
    await passTime(121);
    const replyTo = await replyToOf(reader, 'DMs with King Hamlet');
    const log = jest.spyOn(console, 'info').mockImplementation(() => undefined);
    try {
      expect(await doReceiveEmail(eml(reader.email, `mm${'0'.repeat(32)}@${GATEWAY}`, 'forged'))).toBeUndefined();
      expect(await doReceiveEmail(eml(reader.email, `someone@${GATEWAY}`, 'not a token'))).toBeUndefined();
      expect(await doReceiveEmail(eml(reader.email, 'elsewhere@example.org', 'not ours'))).toBeUndefined();
      advanceClock(5 * 86_400 * 1000 + 1000);
      expect(await doReceiveEmail(eml(reader.email, replyTo, 'too late'))).toBeUndefined();
      const reasons = log.mock.calls.map(([line]) => JSON.parse(String(line)) as { message?: string; reason?: string });
      expect(reasons.filter((r) => r.message === 'email gateway: dropped').map((r) => r.reason)).toEqual([
        'Zulip notification reply address is invalid.',
        'Could not parse missed message address',
        'Missing recipient in mirror email',
        'Zulip notification reply address has expired.',
      ]);
    } finally {
      log.mockRestore();
    }
  });

  it('keeps only the reply of a quoted email', () => {
    expect(replyText(QUOTED)).toBe('Sounds good, see you there.');
    expect(replyText('Top line\n-----Original Message-----\nFrom: x')).toBe('Top line');
    expect(replyText('Answer\n\n> quoted\n> more\n')).toBe('Answer');
    expect(replyText('> a quote I answer\nmy answer')).toBe('> a quote I answer\nmy answer');
  });
});
