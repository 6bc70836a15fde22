// The web app's URL hashes: upstream's encoding, so links pass between Zulip clients, and every
// view read back from its own hash (reload and Back keep the view).
import { decodeHashComponent, encodeHashComponent, hashToNarrow, narrowToHash } from '../../webapp/src/data/hash';
import type { Narrow } from '../../webapp/src/data/narrow';

const NAMES = {
  channelName: (id: number) => ({ 3: 'Denmark', 9: 'design team', 10: 'a.b (c)' })[id],
  userName: (id: number) => ({ 12: 'King Hamlet' })[id],
};
const ME = 11;

describe('webapp hashes', () => {
  it.each([
    ['a topic', 'a.20topic'],
    ['1.2 (draft)', '1.2E2.20.28draft.29'],
    ['100%', '100.25'],
    ['é/ü', '.C3.A9.2F.C3.BC'],
  ])('encodes %j as upstream does and decodes it back', (text, hash) => {
    expect(encodeHashComponent(text)).toBe(hash);
    expect(decodeHashComponent(hash)).toBe(text);
  });

  it.each<[Narrow, string]>([
    [{ kind: 'inbox' }, '#inbox'],
    [{ kind: 'feed' }, '#feed'],
    [{ kind: 'channel', streamId: 3 }, '#narrow/channel/3-Denmark'],
    [{ kind: 'channel', streamId: 9, topic: 'new logo' }, '#narrow/channel/9-design-team/topic/new.20logo'],
    [{ kind: 'channel', streamId: 10, topic: 'x.y' }, '#narrow/channel/10-a.2Eb-.28c.29/topic/x.2Ey'],
    [{ kind: 'dm', userIds: [12] }, '#narrow/dm/12-King-Hamlet'],
    [{ kind: 'dm', userIds: [13, 12] }, '#narrow/dm/12,13-group'],
    [{ kind: 'mentioned' }, '#narrow/is/mentioned'],
    [{ kind: 'starred' }, '#narrow/is/starred'],
    [{ kind: 'search', terms: [{ operator: 'search', operand: 'lunch plans' }] }, '#narrow/search/lunch.20plans'],
    [
      {
        kind: 'search',
        terms: [
          { operator: 'channel', operand: '9' },
          { operator: 'sender', operand: '12' },
          { operator: 'has', operand: 'link', negated: true },
          { operator: 'search', operand: 'logo' },
        ],
      },
      '#narrow/channel/9-design-team/sender/12-King-Hamlet/-has/link/search/logo',
    ],
    [
      {
        kind: 'search',
        terms: [
          { operator: 'dm', operand: '12,13' },
          { operator: 'near', operand: '40' },
        ],
      },
      '#narrow/dm/12,13-group/near/40',
    ],
    [{ kind: 'search', terms: [{ operator: 'is', operand: 'unread' }] }, '#narrow/is/unread'],
  ])('writes %j as %s and reads it back', (narrow, hash) => {
    expect(narrowToHash(narrow, NAMES, ME)).toBe(hash);
    const read = hashToNarrow(hash)!;
    expect(read).toEqual(narrow.kind === 'dm' ? { kind: 'dm', userIds: [...narrow.userIds].sort((a, b) => a - b) } : narrow);
  });

  it('writes my DM with myself under my own id', () => {
    expect(narrowToHash({ kind: 'dm', userIds: [ME] }, { ...NAMES, userName: () => 'Iago' }, ME)).toBe('#narrow/dm/11-Iago');
  });

  it.each([
    ['#narrow/stream/3-Denmark/subject/castle', { kind: 'channel', streamId: 3, topic: 'castle' }],
    ['#narrow/pm-with/12-hamlet', { kind: 'dm', userIds: [12] }],
    ['#narrow/channel/3', { kind: 'channel', streamId: 3 }],
    ['#all_messages', { kind: 'feed' }],
    ['#recent', { kind: 'inbox' }],
    ['#narrow/channel/3-Denmark/topic/castle', { kind: 'channel', streamId: 3, topic: 'castle' }],
    ['#narrow/from/12-hamlet', { kind: 'search', terms: [{ operator: 'sender', operand: '12' }] }],
  ])('reads the older spelling %s', (hash, narrow) => {
    expect(hashToNarrow(hash)).toEqual(narrow);
  });

  it.each(['', '#', '#settings', '#narrow/channel/Denmark', '#narrow/sender/hamlet', '#narrow/color/red', '#narrow/topic/.E0'])(
    'knows no view in %j',
    (hash) => {
      expect(hashToNarrow(hash)).toBeUndefined();
    },
  );
});
