// The frame of a popover (anchored below the control that opened it, kept on screen) and of a
// modal dialog (centred over a dimmed page): a click outside closes either, as Esc does
// (keyboard.ts); the first control inside takes the focus.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { closePopover, type Anchor } from '../ui';

const useFocusFirst = () => {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[autofocus], input, textarea, select, button, [href]')?.focus();
  }, []);
  return box;
};

type FrameProps = { label: string; class: string; id?: string; children: ComponentChildren };

export const PopoverFrame = ({ at, label, role, ...props }: FrameProps & { at: Anchor; role: 'menu' | 'dialog' }) => {
  const box = useFocusFirst();
  const left = Math.max(8, Math.min(at.x, window.innerWidth - 300));
  const top = Math.max(8, Math.min(at.y, window.innerHeight - 340));
  return (
    <div class="popover-backdrop" onClick={(e) => e.target === e.currentTarget && closePopover()}>
      <div
        ref={box}
        id={props.id}
        class={`popover ${props.class}`}
        role={role}
        aria-label={label}
        style={{ left: `${left}px`, top: `${top}px` }}
      >
        {props.children}
      </div>
    </div>
  );
};

export const DialogFrame = ({ label, ...props }: FrameProps) => {
  const box = useFocusFirst();
  return (
    <div class="dialog-backdrop" onClick={(e) => e.target === e.currentTarget && closePopover()}>
      <div ref={box} id={props.id} class={`modal-dialog ${props.class}`} role="dialog" aria-modal="true" aria-label={label}>
        <h2 class="dialog_heading">{label}</h2>
        {props.children}
      </div>
    </div>
  );
};

/** A menu's item: a button that runs its action and closes the menu. */
export const MenuItem = ({ label, onSelect, class: cls }: { label: string; onSelect: () => void; class?: string }) => (
  <button
    type="button"
    role="menuitem"
    class={`popover_menu_item${cls ? ` ${cls}` : ''}`}
    onClick={() => {
      closePopover();
      onSelect();
    }}
  >
    {label}
  </button>
);

/** A dialog's button that closes it (Cancel, Close). */
export const CloseButton = ({ label }: { label: string }) => (
  <button type="button" class="dialog_cancel" onClick={closePopover}>
    {label}
  </button>
);

/** The server's refusal, in a dialog that stays open. */
export const ErrorLine = ({ error }: { error: string | null }) =>
  error ? (
    <p class="dialog_error" role="alert">
      {error}
    </p>
  ) : null;
