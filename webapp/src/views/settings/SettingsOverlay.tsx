// Personal settings (upstream's #settings overlay), loaded on first use: the profile (avatar,
// custom profile fields), account and privacy (password, the API key page), notifications (email
// and push), preferences (theme, 12 or 24 hour time) and muted users. Every change goes to the
// API at once, and what the page shows comes back through the events of that change.
import { useEffect, useRef } from 'preact/hooks';
import { hashOf, narrow } from '../../store';
import { AccountSection, NotificationsSection, PreferencesSection } from './SettingsSections';
import { MutedUsersSection } from './MutedUsers';
import { ProfileSection } from './Profile';

const SECTIONS = [
  { id: 'profile', label: 'Profile', Panel: ProfileSection },
  { id: 'account-and-privacy', label: 'Account & privacy', Panel: AccountSection },
  { id: 'preferences', label: 'Preferences', Panel: PreferencesSection },
  { id: 'notifications', label: 'Notifications', Panel: NotificationsSection },
  { id: 'muted-users', label: 'Muted users', Panel: MutedUsersSection },
];

const close = () => {
  window.location.hash = hashOf(narrow.peek());
};

export const SettingsOverlay = ({ section }: { section: string }) => {
  const current = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0]!;
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div class="overlay settings-overlay" role="presentation" onClick={(e) => e.target === e.currentTarget && close()}>
      <div
        id="settings_page"
        class="overlay-content"
        role="dialog"
        aria-modal="true"
        aria-labelledby="settings-title"
        tabIndex={-1}
        ref={dialog}
      >
        <header class="overlay-header">
          <h2 id="settings-title">Personal settings</h2>
          <button type="button" class="exit" aria-label="Close" onClick={close}>
            ×
          </button>
        </header>
        <div class="settings-body">
          <nav class="settings-sections" aria-label="Settings sections">
            {SECTIONS.map((s) => (
              <a
                key={s.id}
                href={`#settings/${s.id}`}
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
