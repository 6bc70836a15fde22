// The compose box's typeahead (upstream's composebox_typeahead.ts): which token before the cursor
// is being completed and with what; the wildcard permission; drafts and groups from events.
import { applyComposeEvent, composeDataFromRegister, draftFor, wildcardsAllowed } from '../../webapp/src/data/compose-data';
import { composeTypeahead, topicChannel, type ComposeContext } from '../../webapp/src/data/compose-typeahead';
import { activeRealmEmoji } from '../../webapp/src/data/emoji';
import { DENMARK, HAMLET, ME, OTHELLO, register, state } from './fixtures';

const app = state();
const GROUPS = [
  { id: 1, name: 'role:administrators', members: [ME], is_system_group: true },
  { id: 2, name: 'hamletcharacters', members: [HAMLET], direct_subgroup_ids: [] },
  { id: 3, name: 'leads', members: [], direct_subgroup_ids: [1] },
];
const context = (overrides: Partial<ComposeContext> = {}): ComposeContext => ({
  people: app.people,
  channels: app.channels,
  groups: GROUPS,
  emoji: [{ name: 'smile', glyph: '🙂' }, { name: 'big_smile' }, { name: 'octopus' }],
  topicsOf: (id) => (id === DENMARK ? ['castle', 'new logo', 'plans'] : undefined),
  to: 'stream',
  wildcardsAllowed: true,
  me: ME,
  ...overrides,
});
const texts = (before: string, ctx = context()) => composeTypeahead(before, ctx)?.completions.map((c) => c.text);

describe('webapp compose typeahead', () => {
  it('completes @ with wildcards, people and groups', () => {
    expect(texts('Hi @')).toEqual([
      '@**all** ',
      '@**everyone** ',
      '@**channel** ',
      '@**topic** ',
      '@**King Hamlet** ',
      '@**Othello, the Moor of Venice** ',
      '@*hamletcharacters* ',
      '@*leads* ',
    ]);
    expect(texts('Hi @ha')).toEqual(['@**King Hamlet** ', '@*hamletcharacters* ']);
    expect(composeTypeahead('Hi @ha', context())?.start).toBe(3);
    expect(texts('@_oth')).toEqual(['@_**Othello, the Moor of Venice** ']);
  });

  it('offers only the wildcards allowed: none when not permitted, @all and @everyone in a DM', () => {
    expect(texts('@', context({ wildcardsAllowed: false }))?.some((t) => t.includes('all'))).toBe(false);
    expect(texts('@', context({ to: 'dm' }))?.slice(0, 3)).toEqual(['@**all** ', '@**everyone** ', '@**King Hamlet** ']);
  });

  it('completes # with channels, #**channel> with its topics, and : with emoji', () => {
    expect(texts('see #den')).toEqual(['#**Denmark**']);
    expect(topicChannel('see #**Denmark**>lo')).toBe('Denmark');
    expect(texts('see #**Denmark>lo')).toEqual(['#**Denmark>new logo** ']);
    expect(texts('see #**Denmark**>')).toEqual(['#**Denmark>castle** ', '#**Denmark>new logo** ', '#**Denmark>plans** ']);
    expect(texts('nice :smi')).toEqual([':smile: ', ':big_smile: ']);
    expect(composeTypeahead('nice :smi', context())?.completions[0]!.label).toBe('🙂 :smile:');
  });

  it('completes nothing inside a word, after a finished mention, or for one letter of emoji', () => {
    expect(composeTypeahead('email@ex', context())).toBeUndefined();
    expect(composeTypeahead('C#', context())).toBeUndefined();
    expect(composeTypeahead('@**King Hamlet** ', context())).toBeUndefined();
    expect(composeTypeahead('at 10:3', context())).toBeUndefined();
  });

  it('allows wildcards to a small audience, or to members of can_mention_many_users_group (subgroups included)', () => {
    const data = composeDataFromRegister(register({ realm_user_groups: GROUPS, realm_can_mention_many_users_group: 3 }));
    expect(wildcardsAllowed(data, ME, 100)).toBe(true);
    expect(wildcardsAllowed(data, HAMLET, 100)).toBe(false);
    expect(wildcardsAllowed(data, HAMLET, 15)).toBe(true);
    const anonymous = { ...data, canMentionMany: { direct_members: [OTHELLO], direct_subgroups: [2] } };
    expect(wildcardsAllowed(anonymous, HAMLET, 100)).toBe(true);
    expect(wildcardsAllowed(anonymous, ME, 100)).toBe(false);
  });

  it('keeps drafts and groups current from events, and finds the draft of a conversation', () => {
    let data = composeDataFromRegister(register({ realm_user_groups: GROUPS }));
    const draft = { id: 7, type: 'stream' as const, to: [DENMARK], topic: 'castle', content: 'half a thought', timestamp: 100 };
    data = applyComposeEvent(data, { id: 1, type: 'drafts', op: 'add', drafts: [draft] });
    expect(draftFor(data, 'stream', [DENMARK], 'castle')?.content).toBe('half a thought');
    expect(draftFor(data, 'stream', [DENMARK], 'plans')).toBeUndefined();
    data = applyComposeEvent(data, { id: 2, type: 'drafts', op: 'update', draft: { ...draft, content: 'a whole thought' } });
    expect(data.drafts.map((d) => d.content)).toEqual(['a whole thought']);
    data = applyComposeEvent(data, { id: 3, type: 'drafts', op: 'remove', draft_id: 7 });
    expect(data.drafts).toEqual([]);
    data = applyComposeEvent(data, { id: 4, type: 'user_group', op: 'add_members', group_id: 2, user_ids: [OTHELLO] });
    expect(data.groups.find((g) => g.id === 2)?.members).toEqual([HAMLET, OTHELLO]);
    const emoji = { id: '1', name: 'green_tick', source_url: '/1.png', deactivated: false };
    expect(activeRealmEmoji({ 1: emoji, 2: { ...emoji, id: '2', name: 'old', deactivated: true } })).toEqual([emoji]);
  });
});
