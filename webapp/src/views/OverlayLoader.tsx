// The overlays at upstream's hashes (#settings/…, #organization/…, #channels/…), each loaded in a
// chunk of its own the first time it opens (the first load stays small); the view behind it stays.
// Also applies the theme (light, dark or as the system) of my settings to the page.
// Their styles (and the dark theme's colours) are in the first load: a chunk's CSS is not loaded with it.
import '../styles/settings.css';
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { overlayOfHash, type OverlayKind } from '../data/overlays';
import { themeOf } from '../data/user-settings';
import { userSettings } from '../store';

const open = signal(overlayOfHash(window.location.hash));
window.addEventListener('hashchange', () => {
  open.value = overlayOfHash(window.location.hash);
});

type OverlayView = ComponentType<{ section: string }>;

/** Each overlay's chunk: personal settings alone; organization settings and the channel browser together. */
const CHUNKS: Record<OverlayKind, () => Promise<OverlayView>> = {
  settings: () => import('./settings/SettingsOverlay').then((m) => m.SettingsOverlay),
  organization: () => import('./organization/OrganizationOverlay').then((m) => m.OrganizationOverlay),
  channels: () => import('./organization/OrganizationOverlay').then((m) => m.ChannelsOverlay),
};

const loaded = signal<Partial<Record<OverlayKind, OverlayView>>>({});

export const OverlayLoader = () => {
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
  const overlay = open.value;
  const kind = overlay?.kind;
  useEffect(() => {
    if (kind !== undefined && !loaded.peek()[kind])
      void CHUNKS[kind]().then((view) => {
        loaded.value = { ...loaded.peek(), [kind]: view };
      });
  }, [kind]);
  const View = kind && loaded.value[kind];
  return overlay && View ? <View key={overlay.kind} section={overlay.section} /> : null;
};
