// Upstream's keyboard shortcuts, on the whole page: j/k select the next or previous message, n
// opens the next unread topic, r (or Enter) replies to the selected message, c starts a new topic,
// x a new direct message, / goes to the search box, ? lists the shortcuts, Esc closes what is open
// (or leaves the field typed in). Letters do nothing while typing in a field.
import { goTo } from './actions';
import { nextSelection, nextUnreadTopic } from './data/keyboard';
import { composeFor, replyTo } from './reply';
import { current, narrow } from './store';
import { closePopover, fillCompose, popover, selectedId } from './ui';

const typingIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

const setField = (selector: string, value: string): void => {
  const field = document.querySelector<HTMLInputElement>(selector);
  if (!field) return;
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.focus();
};

/** Opens the compose box (the combined feed's, from the inbox) in a mode, and focuses a field. */
const composeNew = async (mode: 'Channel' | 'Direct message', field: string): Promise<void> => {
  let view = narrow.peek();
  if (view.kind === 'inbox') {
    view = { kind: 'feed' };
    goTo(view);
  }
  await composeFor(view);
  [...document.querySelectorAll<HTMLButtonElement>('.compose_mode [role="tab"]')].find((tab) => tab.textContent === mode)?.click();
  await composeFor(view);
  setField(field, '');
};

const select = (step: 1 | -1): void => {
  const ids = current().list?.ids ?? [];
  const id = nextSelection(ids, selectedId.peek(), step);
  selectedId.value = id;
  document.querySelector(`.message_row[data-message-id="${id}"]`)?.scrollIntoView({ block: 'nearest' });
};

const reply = (): void => {
  const state = current();
  const ids = state.list?.ids ?? [];
  const id = selectedId.peek() ?? ids[ids.length - 1];
  const message = id === undefined ? undefined : state.messages.get(id);
  if (message) void replyTo(message);
  else fillCompose(document.querySelector<HTMLTextAreaElement>('#compose-textarea')?.value ?? '');
};

const nextTopic = (): void => {
  const state = current();
  const view = narrow.peek();
  const here = view.kind === 'channel' && view.topic !== undefined ? { streamId: view.streamId, topic: view.topic } : undefined;
  const next = nextUnreadTopic(state.unread, state.channels, here);
  if (next) goTo({ kind: 'channel', ...next });
};

const ACTIONS: Record<string, () => void> = {
  j: () => select(1),
  k: () => select(-1),
  n: nextTopic,
  r: reply,
  Enter: reply,
  c: () => void composeNew('Channel', '#stream_message_recipient_topic'),
  x: () => void composeNew('Direct message', '#private_message_recipient'),
  '/': () => document.querySelector<HTMLInputElement>('#search_query')?.focus(),
  '?': () => (popover.value = { kind: 'shortcuts' }),
};

export const onKeyDown = (event: KeyboardEvent): void => {
  if (event.key === 'Escape') {
    if (popover.peek()) closePopover();
    else if (typingIn(event.target)) (event.target as HTMLElement).blur();
    else return;
    event.preventDefault();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing || typingIn(event.target) || popover.peek()) return;
  // An overlay (settings) covers the view: its keys are not the view's shortcuts.
  if (document.querySelector('.overlay')) return;
  if (event.target instanceof HTMLButtonElement && event.key === 'Enter') return;
  const action = ACTIONS[event.key];
  if (!action) return;
  event.preventDefault();
  action();
};

export const startShortcuts = (): void => {
  document.addEventListener('keydown', onKeyDown);
};
