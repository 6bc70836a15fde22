// My presence, as upstream's web app reports it: POST /users/me/presence every 60 s, "active"
// while the page is visible and used in the last few minutes, else "idle"; the answer refreshes
// everyone's presence. Also the clock that lets typing notices and presence dots lapse.
import { request } from './api/client';
import type { PresenceTimes } from './api/types';
import { withPresences } from './data/people';
import { now, update } from './store';

const PING_MS = 60_000;
const IDLE_AFTER_MS = 5 * 60_000;
const CLOCK_MS = 5_000;

let lastInput = Date.now();
let newInput = true;

const ping = async (): Promise<void> => {
  const active = document.visibilityState === 'visible' && Date.now() - lastInput < IDLE_AFTER_MS;
  const answer = await request<{ presences?: Record<string, PresenceTimes> }>('POST', 'users/me/presence', {
    status: active ? 'active' : 'idle',
    new_user_input: String(newInput),
    ping_only: 'false',
    slim_presence: 'true',
  });
  newInput = false;
  if (answer.presences) update((state) => ({ ...state, people: withPresences(state.people, answer.presences!) }));
};

export const startPresence = (): void => {
  for (const type of ['keydown', 'pointerdown', 'focus']) {
    window.addEventListener(type, () => {
      lastInput = Date.now();
      newInput = true;
    });
  }
  const report = () => void ping().catch(() => undefined);
  report();
  setInterval(report, PING_MS);
  setInterval(() => {
    now.value = Date.now();
  }, CLOCK_MS);
};
