// Telling others I am typing (POST /typing), as upstream's web app paces it: a start when typing
// begins and again every 10 s while it goes on, a stop 5 s after the last keystroke, on sending,
// or when the recipient changes.
import { request } from './api/client';
import type { Destination } from './data/outbox';

const RESTART_MS = 10_000;
const STOP_AFTER_MS = 5_000;

type Typing = { key: string; params: Record<string, unknown>; startedAt: number; stopTimer: ReturnType<typeof setTimeout> };
let typing: Typing | undefined;

const paramsOf = (destination: Destination): Record<string, unknown> =>
  destination.kind === 'stream'
    ? { type: 'stream', stream_id: String(destination.streamId), topic: destination.topic }
    : { type: 'direct', to: destination.userIds };

const send = (params: Record<string, unknown>, op: 'start' | 'stop'): void => {
  void request('POST', 'typing', { ...params, op }).catch(() => undefined);
};

export const stopTyping = (): void => {
  if (!typing) return;
  clearTimeout(typing.stopTimer);
  send(typing.params, 'stop');
  typing = undefined;
};

/** A keystroke in the compose box for this destination. */
export const keystroke = (destination: Destination | undefined): void => {
  const key = destination && JSON.stringify(destination);
  if (typing && typing.key !== key) stopTyping();
  if (!destination || !key || (destination.kind === 'stream' && destination.topic === '')) return;
  const params = paramsOf(destination);
  if (!typing || Date.now() - typing.startedAt > RESTART_MS) {
    if (typing) clearTimeout(typing.stopTimer);
    send(params, 'start');
    typing = { key, params, startedAt: Date.now(), stopTimer: setTimeout(stopTyping, STOP_AFTER_MS) };
    return;
  }
  clearTimeout(typing.stopTimer);
  typing.stopTimer = setTimeout(stopTyping, STOP_AFTER_MS);
};
