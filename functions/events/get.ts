// GET /events: long-polls the caller's queue. Authenticated by the queue item itself when the
// queue was registered with the same credentials (lib/http/auth.ts authenticatePoll): a waiting
// client costs no key lookup per poll. The web app's polls (/json/events) by their session.
import { fetchEvents } from '../../lib/events/queues';
import { ALB_BATCH_BYTES, prefixWithin, viaAlb } from '../../lib/http/alb';
import { selfAuthenticatingApiHandler } from '../../lib/http/api-handler';
import { authenticate, authenticatePoll, type PollPrincipal } from '../../lib/http/auth';
import { authenticateJsonRequest, isJsonRoute } from '../../lib/http/session';
import { json, rawString } from '../../lib/http/params';
import { count } from '../../lib/log';
import { bool, int } from '../../lib/validation/validators';

/** Leave this much of the function's own time for the response. */
const RESPONSE_MARGIN_MS = 2000;

/** A poll that ends with only a heartbeat (or nothing) is idle: no request line but a sample's. */
const idle = (data: Record<string, unknown>): boolean =>
  Array.isArray(data.events) && data.events.every((e: { type?: string }) => e.type === 'heartbeat');

export const handler = selfAuthenticatingApiHandler(
  async ({ event, params, context }) => {
    const { authorization, host } = event.headers ?? {};
    const bySession = isJsonRoute(event.headers);
    const check = async (queueId?: string): Promise<PollPrincipal> => {
      if (bySession) return { owner: (await authenticateJsonRequest(event, true)).user };
      return queueId === undefined
        ? { owner: (await authenticate(authorization, host)).user }
        : authenticatePoll(authorization, host, queueId);
    };
    let parsed;
    try {
      parsed = params({
        queue_id: rawString(),
        last_event_id: json(int),
        dont_block: json(bool).default(false),
      });
    } catch (error) {
      // Credentials are checked before parameters, as for every authenticated endpoint.
      await check();
      throw error;
    }
    const { owner, queue } = await check(parsed.queue_id);
    const remaining = context?.getRemainingTimeInMillis?.();
    const events = await fetchEvents(owner, {
      queueId: parsed.queue_id,
      lastEventId: parsed.last_event_id,
      dontBlock: parsed.dont_block,
      maxWaitMs: remaining === undefined ? undefined : remaining - RESPONSE_MARGIN_MS,
      read: queue,
    });
    // Behind the load balancer (the long-poll's edge), an answer is at most 1 MB.
    const sent = viaAlb(event) ? prefixWithin(events, ALB_BATCH_BYTES) : events;
    count('Polls');
    if (idle({ events: sent })) count('IdlePolls');
    else count('EventsDelivered', sent.length);
    return { events: sent };
  },
  { quiet: idle },
);
