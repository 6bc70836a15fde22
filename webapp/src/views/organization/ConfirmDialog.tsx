// A confirmation inside an overlay (deactivate, reactivate, archive): the action runs only when
// confirmed; the server's refusal stays in the dialog, which closes once the server accepted.
// Esc or Cancel closes it; its first field, or else the confirm button, takes the focus.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

type Props = {
  /** alertdialog (the default) for a question; dialog for a form. */
  role?: 'alertdialog' | 'dialog';
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  children: ComponentChildren;
};

export const ConfirmDialog = ({ role = 'alertdialog', title, confirmLabel, onConfirm, onClose, children }: Props) => {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    (box.current?.querySelector<HTMLElement>('input, textarea, select') ?? confirm.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const run = () => {
    setBusy(true);
    setError(null);
    onConfirm().then(onClose, (err: Error) => {
      setBusy(false);
      setError(err.message);
    });
  };
  return (
    <div class="dialog-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} class="modal-dialog confirm-dialog" role={role} aria-modal="true" aria-label={title}>
        <h2 class="dialog_heading">{title}</h2>
        <div class="dialog_body">{children}</div>
        {error && (
          <p class="dialog_error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog_buttons">
          <button type="button" class="dialog_cancel" onClick={onClose}>
            Cancel
          </button>
          <button type="button" class="dialog_submit" ref={confirm} disabled={busy} onClick={run}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
};
