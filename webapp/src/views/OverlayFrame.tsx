// The frame of a full overlay with sections (personal settings, organization settings, the channel
// browser): a title, a close control (Esc or a click outside too, back to the view's hash), the
// sections' links at their hashes, and the current section's panel.
import type { ComponentType } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { hashOf, narrow } from '../store';

export type OverlaySection = { id: string; label: string; Panel: ComponentType };

export const closeOverlay = (): void => {
  window.location.hash = hashOf(narrow.peek());
};

type Props = { id: string; title: string; hashPrefix: string; sections: readonly OverlaySection[]; section: string };

export const OverlayFrame = ({ id, title, hashPrefix, sections, section }: Props) => {
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      // A dialog open inside the overlay closes first (its own Esc).
      if (e.key === 'Escape' && !document.querySelector('.overlay .dialog-backdrop')) closeOverlay();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const titleId = `${id}-title`;
  return (
    <div class="overlay settings-overlay" role="presentation" onClick={(e) => e.target === e.currentTarget && closeOverlay()}>
      <div id={id} class="overlay-content" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={dialog}>
        <header class="overlay-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" class="exit" aria-label="Close" onClick={closeOverlay}>
            ×
          </button>
        </header>
        <div class="settings-body">
          <nav class="settings-sections" aria-label={`${title} sections`}>
            {sections.map((s) => (
              <a
                key={s.id}
                href={`#${hashPrefix}/${s.id}`}
                class={s.id === current.id ? 'active' : ''}
                aria-current={s.id === current.id ? 'page' : undefined}
              >
                {s.label}
              </a>
            ))}
          </nav>
          <section class="settings-section" data-section={current.id} aria-label={current.label}>
            <current.Panel />
          </section>
        </div>
      </div>
    </div>
  );
};
