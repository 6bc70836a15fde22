// The search box's language (upstream's filter.ts): operators and text read into terms with ids,
// the terms shown back as text, the view a search names, what GET /messages is asked, and the
// suggestions offered while typing.
import { apiNarrow } from '../../webapp/src/data/narrow';
import { searchSuggestions } from '../../webapp/src/data/search-suggestions';
import { narrowOfTerms, parseSearch, searchText, type SearchContext } from '../../webapp/src/data/search';
import { DENMARK, HAMLET, ME, OTHELLO, VERONA, state } from './fixtures';

const app = state();
const context: SearchContext = { channels: app.channels, people: app.people, me: ME };

describe('webapp search', () => {
  it('reads operators with names and emails into ids, and the rest as text', () => {
    expect(parseSearch('channel:denmark sender:hamlet@zulip.com -has:link lunch  plans', context)).toEqual({
      terms: [
        { operator: 'channel', operand: String(DENMARK) },
        { operator: 'sender', operand: String(HAMLET) },
        { operator: 'has', operand: 'link', negated: true },
        { operator: 'search', operand: 'lunch plans' },
      ],
      unknown: [],
    });
  });

  it('reads quoted operands and + as spaces, older spellings, me, and a DM of several people', () => {
    expect(parseSearch('stream:Verona subject:"new logo" from:me pm-with:hamlet@zulip.com,othello@zulip.com', context).terms).toEqual([
      { operator: 'channel', operand: String(VERONA) },
      { operator: 'topic', operand: 'new logo' },
      { operator: 'sender', operand: String(ME) },
      { operator: 'dm', operand: `${HAMLET},${OTHELLO}` },
    ]);
    expect(parseSearch('topic:new+logo', context).terms).toEqual([{ operator: 'topic', operand: 'new logo' }]);
  });

  it('lists what names no channel or person, and takes an unknown operator as text', () => {
    expect(parseSearch('channel:Atlantis sender:nobody@zulip.com color:red', context)).toEqual({
      terms: [{ operator: 'search', operand: 'color:red' }],
      unknown: ['channel:Atlantis', 'sender:nobody@zulip.com'],
    });
  });

  it('shows terms back as text with names and emails', () => {
    const { terms } = parseSearch('channel:Denmark topic:"new logo" -sender:hamlet@zulip.com soup', context);
    expect(searchText(terms, context)).toBe('channel:Denmark topic:"new logo" -sender:hamlet@zulip.com soup');
  });

  it.each([
    ['channel:Denmark', { kind: 'channel', streamId: DENMARK }],
    ['channel:Denmark topic:castle', { kind: 'channel', streamId: DENMARK, topic: 'castle' }],
    ['dm:hamlet@zulip.com', { kind: 'dm', userIds: [HAMLET] }],
    ['is:starred', { kind: 'starred' }],
    ['is:mentioned', { kind: 'mentioned' }],
  ])('opens the view %s names', (query, narrow) => {
    expect(narrowOfTerms(parseSearch(query, context).terms)).toEqual(narrow);
  });

  it('asks GET /messages with ids, negation and near', () => {
    const narrow = narrowOfTerms(parseSearch('channel:Denmark -sender:hamlet@zulip.com near:42 is:unread', context).terms);
    expect(apiNarrow(narrow as never, ME)).toEqual([
      { operator: 'channel', operand: DENMARK },
      { operator: 'sender', operand: HAMLET, negated: true },
      { operator: 'near', operand: 42 },
      { operator: 'is', operand: 'unread' },
    ]);
  });

  it('suggests operators, channels and people for a word', () => {
    const labels = searchSuggestions('lunch s', context).map((s) => s.query);
    expect(labels).toEqual(['lunch s', 'lunch sender:']);
    expect(searchSuggestions('den', context)).toEqual([
      { query: 'den', label: 'Search for den' },
      { query: 'channel:Denmark', label: '#Denmark' },
    ]);
    expect(searchSuggestions('ham', context).map((s) => s.query)).toEqual(['ham', 'sender:hamlet@zulip.com']);
  });

  it("suggests an operator's operands", () => {
    expect(searchSuggestions('channel:v', context).map((s) => s.query)).toEqual(['channel:Verona']);
    expect(searchSuggestions('soup -sender:oth', context).map((s) => s.query)).toEqual(['soup -sender:othello@zulip.com']);
    expect(searchSuggestions('has:', context).map((s) => s.query)).toEqual(['has:link', 'has:image', 'has:attachment', 'has:reaction']);
    expect(searchSuggestions('', context)).toEqual([]);
  });
});
