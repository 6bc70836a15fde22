// The settings overlay at upstream's #settings/<section> hashes, loaded in a chunk of its own the
// first time it opens (the first load stays small); the view behind it stays. Also applies the
// theme (light, dark or as the system) of my settings to the page.
// Its styles (and the dark theme's colours) are in the first load: a chunk's CSS is not loaded with it.
import '../styles/settings.css';
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { themeOf } from '../data/user-settings';
import { userSettings } from '../store';

const sectionOfHash = (): string | undefined =>
  /^#settings(?:\/([\w-]+))?/.exec(window.location.hash)?.[1] ?? (window.location.hash.startsWith('#settings') ? 'profile' : undefined);

const section = signal(sectionOfHash());
window.addEventListener('hashchange', () => {
  section.value = sectionOfHash();
});

const overlay = signal<ComponentType<{ section: string }> | null>(null);

export const SettingsLoader = () => {
  const theme = themeOf(userSettings.value);
  useEffect(() => {
    // "As the system" follows the system's choice, also when it changes while the page is open.
    const system = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'auto' ? (system.matches ? 'dark' : 'light') : theme;
    };
    apply();
    system.addEventListener('change', apply);
    return () => system.removeEventListener('change', apply);
  }, [theme]);
  const open = section.value;
  useEffect(() => {
    if (open !== undefined && !overlay.peek())
      void import('./settings/SettingsOverlay').then((m) => {
        overlay.value = m.SettingsOverlay;
      });
  }, [open]);
  const Overlay = overlay.value;
  return open !== undefined && Overlay ? <Overlay section={open} /> : null;
};
