// The page's transient interface state, apart from the server's: the open popover or dialog (one
// at a time, as upstream), and the selected message that j/k move and r replies to.
import { signal } from '@preact/signals';

/** Where a popover opens: below-left of the control that opened it. */
export type Anchor = { x: number; y: number };

export type Popover =
  | { kind: 'message-actions'; messageId: number; at: Anchor }
  | { kind: 'emoji-picker'; messageId: number; at: Anchor }
  | { kind: 'user-card'; userId: number; at: Anchor }
  | { kind: 'topic-actions'; streamId: number; topic: string; messageId: number; at: Anchor }
  | { kind: 'edit'; messageId: number }
  | { kind: 'delete'; messageId: number }
  | { kind: 'read-receipts'; messageId: number }
  | { kind: 'move-topic'; streamId: number; topic: string; messageId: number }
  | { kind: 'shortcuts' }
  | { kind: 'gear-menu'; at: Anchor };

export const popover = signal<Popover | null>(null);

export const selectedId = signal<number | undefined>(undefined);

/** The anchor of a popover opened from an element (a click's currentTarget). */
export const anchorOf = (el: EventTarget | null): Anchor => {
  const box = (el as HTMLElement | null)?.getBoundingClientRect();
  return box ? { x: box.left, y: box.bottom + 4 } : { x: 100, y: 100 };
};

export const closePopover = (): void => {
  popover.value = null;
};

/** Puts text into the compose box as if typed (its own input handler keeps it), and focuses it. */
export const fillCompose = (text: string): void => {
  const box = document.querySelector<HTMLTextAreaElement>('#compose-textarea');
  if (!box) return;
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.focus();
  box.setSelectionRange(text.length, text.length);
};
