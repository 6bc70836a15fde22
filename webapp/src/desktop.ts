// Zulip's desktop app (zulip-desktop) loads the organization in a webview and gives the page
// `window.electron_bridge`: the app reports the unread count for the dock badge, hands it
// notifications for direct messages and mentions, and signs out when the desktop app asks.
import { effect } from '@preact/signals';
import type { ServerEvent } from './api/types';
import { MENTION_FLAGS } from './data/narrow';
import type { AppState } from './data/state';
import { notificationSettings } from './data/user-settings';
import { browserNotify } from './notifications';
import { counts, realm } from './store';

/** The bridge as zulip-desktop's preload script defines it (upstream's electron_bridge.d.ts). */
type ElectronBridge = {
  send_event: (eventName: string, ...args: unknown[]) => boolean;
  on_event: (eventName: string, listener: (...args: unknown[]) => void) => void;
  new_notification?: (title: string, options: NotificationOptions, dispatch: (type: string, init: EventInit) => boolean) => unknown;
};

const bridge = (): ElectronBridge | undefined => (window as { electron_bridge?: ElectronBridge }).electron_bridge;

/** Ends the session: the server's logout form (POST /accounts/logout/ with the CSRF token). */
export const signOut = (): void => {
  document.querySelector<HTMLFormElement>('#logout_form')?.submit();
};

export const startDesktopBridge = (): void => {
  const desktop = bridge();
  if (!desktop) return;
  desktop.on_event('logout', signOut);
  effect(() => {
    desktop.send_event('total_unread_count', counts.value.total);
  });
  effect(() => {
    desktop.send_event('realm_name', realm.value.name);
  });
};

const plainText = (html: string): string => new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';

/**
 * A notification for a message to me (a DM) or mentioning me, from someone else: the desktop app's
 * when it hosts the page, else the browser's (notifications.ts, which applies my settings).
 */
export const notifyOfMessage = (event: Extract<ServerEvent, { type: 'message' }>, state: AppState): void => {
  const { message, flags } = event;
  if (message.sender_id === state.me.userId || flags.includes('read')) return;
  const mentioned = flags.some((flag) => MENTION_FLAGS.includes(flag));
  if (message.type !== 'private' && !mentioned) return;
  const where = message.type === 'stream' ? ` (#${String(message.display_recipient)} > ${message.subject})` : '';
  const note = {
    title: `${message.sender_full_name}${where}`,
    body: plainText(message.content),
    tag: String(message.id),
    icon: message.avatar_url ?? undefined,
  };
  const notify = bridge()?.new_notification;
  if (notify) notify(note.title, { body: note.body, tag: note.tag, icon: note.icon }, () => true);
  else browserNotify({ ...note, isDirect: message.type === 'private' }, notificationSettings(state.userSettings));
};
