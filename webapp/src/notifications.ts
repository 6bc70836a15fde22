// Browser notifications (the Notification API) for a direct message or a mention while the page is
// hidden, as my settings say: none without enable_desktop_notifications, a DM's text only with
// pm_content_in_desktop_notifications, and a short sound with enable_sounds (a tone of the page's
// own, no sound file). The browser asks for permission on my first click, as it allows only then.
import type { NotificationSettings } from './api/types';

type Note = { title: string; body: string; tag: string; icon?: string; isDirect: boolean };

export const askNotificationPermission = (): void => {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  document.addEventListener('click', () => void Notification.requestPermission().catch(() => undefined), { once: true });
};

const chime = (): void => {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
    tone.onended = () => void audio.close();
  } catch {
    // No audio here (a browser without Web Audio): the notification alone.
  }
};

export const browserNotify = (note: Note, user: Required<NotificationSettings>): void => {
  if (!user.enable_desktop_notifications || document.visibilityState !== 'hidden') return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const body = note.isDirect && !user.pm_content_in_desktop_notifications ? 'New direct message' : note.body;
  const shown = new Notification(note.title, { body, tag: note.tag, icon: note.icon });
  shown.onclick = () => {
    window.focus();
    shown.close();
  };
  if (user.enable_sounds && user.notification_sound !== 'none') chime();
};
