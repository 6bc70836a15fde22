// The search box (upstream's #search_query): upstream's operators and text, suggestions as one
// types, and the view the search names (a channel, a topic, a DM, or a search view), with its
// #narrow/… hash. An operand that names no channel or person is said so, and nothing is searched.
import { useEffect, useState } from 'preact/hooks';
import { goTo } from '../actions';
import { searchSuggestions } from '../data/search-suggestions';
import { narrowOfTerms, parseSearch, searchText, type SearchContext } from '../data/search';
import { channels, me, narrow, people } from '../store';
import { useTypeahead } from './Typeahead';

export const SearchBox = () => {
  const view = narrow.value;
  const context: SearchContext = { channels: channels.value, people: people.value, me: me.value.userId };
  const shown = view.kind === 'search' ? searchText(view.terms, context) : '';
  const [query, setQuery] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setQuery(shown), [shown]);

  const search = (text: string) => {
    const { terms, unknown } = parseSearch(text, context);
    if (unknown.length > 0) {
      setError(`No such channel or person: ${unknown.join(', ')}`);
      return;
    }
    setError(null);
    typeahead.close();
    if (terms.length > 0) goTo(narrowOfTerms(terms));
  };

  const suggestions = searchSuggestions(query, context);
  const typeahead = useTypeahead(
    'search_suggestions',
    suggestions.map((s) => {
      const word = s.query.slice(s.query.lastIndexOf(' ') + 1);
      return { key: s.query, label: s.label, detail: s.label.includes(word) ? undefined : word };
    }),
    (item) => {
      // An operator alone waits for its operand; anything else searches at once.
      if (item.key.endsWith(':')) setQuery(item.key);
      else {
        setQuery(item.key);
        search(item.key);
      }
    },
  );

  return (
    <form
      id="searchbox"
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search(query);
      }}
    >
      <input
        id="search_query"
        type="text"
        placeholder="Search"
        aria-label="Search"
        autocomplete="off"
        value={query}
        {...typeahead.inputProps}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          typeahead.onKeyDown(e);
        }}
      />
      {typeahead.menu}
      {error && (
        <div class="search-error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
};
