// What a digest shows (lib/models/digest.ts), as upstream's zerver/lib/digest.py chooses it.
import { digestTopicsOf, digestWeekday, hotTopics, visibleNewChannels, worthSending, type DigestMessage } from '../../../lib/models/digest';
import type { Channel } from '../../../lib/models/channel';

let id = 0;
const msg = (topic: string, senderName: string, senderIsBot = false, channelId = 1): DigestMessage => ({
  id: (id += 1),
  channelId,
  topic,
  senderName,
  senderIsBot,
  content: `${topic} by ${senderName}`,
  html: '',
});

describe('hot topics', () => {
  it('takes the two topics with the most human senders, then the longest, at most 4; bots count for neither', () => {
    const messages = [
      ...['A', 'B', 'C'].map((s) => msg('wide', s)),
      ...['A', 'B'].map((s) => msg('pair', s)),
      ...Array.from({ length: 6 }, () => msg('long', 'A')),
      ...Array.from({ length: 4 }, () => msg('medium', 'B')),
      ...Array.from({ length: 9 }, () => msg('bots only', 'Bot', true)),
      msg('short', 'C'),
    ];
    expect(hotTopics(digestTopicsOf(messages)).map((t) => t.topic)).toEqual(['wide', 'pair', 'long', 'medium']);
  });

  it('groups topic names case-insensitively and keeps the first 2 messages as the teaser', () => {
    const [topic] = digestTopicsOf([msg('Plans', 'A'), msg('plans', 'B'), msg('PLANS', 'C')]);
    expect(topic.teaser.map((m) => m.senderName)).toEqual(['A', 'B']);
    expect(topic.humanMessages).toBe(3);
    expect([...topic.humanSenders].sort()).toEqual(['A', 'B', 'C']);
  });
});

describe('new channels', () => {
  const channel = (cid: number, over: Partial<Channel>): Channel =>
    ({ id: cid, name: `c${cid}`, dateCreated: 100, inviteOnly: false, isWebPublic: false, isArchived: false, ...over }) as Channel;
  const channels = [
    channel(1, {}),
    channel(2, { inviteOnly: true }),
    channel(3, { isWebPublic: true }),
    channel(4, { dateCreated: 10 }),
    channel(5, { isArchived: true }),
  ];

  it('are the public ones created after the cutoff for a member, never a private one', () => {
    expect(visibleNewChannels(channels, 50, false).map((c) => c.id)).toEqual([1, 3]);
  });

  it('are only the web-public ones for a guest', () => {
    expect(visibleNewChannels(channels, 50, true).map((c) => c.id)).toEqual([3]);
  });
});

describe('whether a digest is sent', () => {
  const facts = { hot: [], newChannels: [] };
  it('needs a hot topic or a new channel, or with content hidden a new message or a new channel', () => {
    expect(worthSending({ ...facts, content: { allowed: true } })).toBe(false);
    expect(worthSending({ ...facts, newChannels: [{ name: 'x', url: 'u' }], content: { allowed: true } })).toBe(true);
    expect(worthSending({ ...facts, content: { allowed: false, byRealm: false, newMessages: 0 } })).toBe(false);
    expect(worthSending({ ...facts, content: { allowed: false, byRealm: true, newMessages: 3 } })).toBe(true);
  });
});

describe('the weekday', () => {
  it('numbers days as upstream (Monday 0, Sunday 6), in UTC', () => {
    expect(digestWeekday(Date.UTC(2030, 5, 3, 0, 0, 0) / 1000)).toBe(0);
    expect(digestWeekday(Date.UTC(2030, 5, 9, 23, 59, 59) / 1000)).toBe(6);
  });
});
