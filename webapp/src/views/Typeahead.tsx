// A typeahead under an input (upstream's .typeahead dropdown menu): the host computes the items as
// its text changes; ↑/↓ move the highlight, Enter or Tab pick it, Escape closes the list; a click
// picks too. The input keeps the focus, and aria-activedescendant names the highlighted item.
import '../styles/typeahead.css';
import { useEffect, useState } from 'preact/hooks';

export type TypeaheadItem = { key: string; label: string; detail?: string };

export type Typeahead = {
  /** Handles a key of the input; true when the typeahead used it (the input then does nothing more). */
  onKeyDown: (e: KeyboardEvent) => boolean;
  menu: preact.JSX.Element | null;
  /** For the input: its combobox attributes, and closing the list when it loses the focus. */
  inputProps: Record<string, string | boolean | undefined | (() => void)>;
  /** Closes the list until the items change. */
  close: () => void;
};

export const useTypeahead = (id: string, items: readonly TypeaheadItem[], pick: (item: TypeaheadItem) => void): Typeahead => {
  const [active, setActive] = useState(0);
  const [closed, setClosed] = useState(false);
  const signature = items.map((item) => item.key).join('\n');
  useEffect(() => {
    setActive(0);
    setClosed(false);
  }, [signature]);
  const open = !closed && items.length > 0;
  const choose = (item: TypeaheadItem) => {
    setClosed(true);
    pick(item);
  };
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const step = e.key === 'ArrowDown' ? 1 : items.length - 1;
      setActive((i) => (i + step) % items.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      if (e.isComposing) return false;
      choose(items[Math.min(active, items.length - 1)]!);
    } else if (e.key === 'Escape') setClosed(true);
    else return false;
    e.preventDefault();
    return true;
  };
  const optionId = (i: number) => `${id}-option-${i}`;
  const menu = open ? (
    <ul id={id} class="typeahead dropdown-menu" role="listbox">
      {items.map((item, i) => (
        <li
          key={item.key}
          id={optionId(i)}
          role="option"
          aria-selected={i === active}
          class={i === active ? 'active' : ''}
          // mousedown, not click: the input must not lose its focus first.
          onMouseDown={(e) => {
            e.preventDefault();
            choose(item);
          }}
        >
          <span class="typeahead-label">{item.label}</span>
          {item.detail && <span class="typeahead-detail">{item.detail}</span>}
        </li>
      ))}
    </ul>
  ) : null;
  return {
    onKeyDown,
    menu,
    close: () => setClosed(true),
    inputProps: {
      onBlur: () => setClosed(true),
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      'aria-controls': open ? id : undefined,
      'aria-activedescendant': open ? optionId(Math.min(active, items.length - 1)) : undefined,
    },
  };
};
