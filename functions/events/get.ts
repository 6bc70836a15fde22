// GET /events: long-polls the caller's queue.
import { fetchEvents } from '../../lib/events/queues';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool, int } from '../../lib/validation/validators';

/** Leave this much of the function's own time for the response. */
const RESPONSE_MARGIN_MS = 2000;

export const handler = apiHandler(
  async ({ user, params, context }) => {
    const { queue_id, last_event_id, dont_block } = params({
      queue_id: rawString(),
      last_event_id: json(int),
      dont_block: json(bool).default(false),
    });
    const remaining = context?.getRemainingTimeInMillis?.();
    const events = await fetchEvents(user, {
      queueId: queue_id,
      lastEventId: last_event_id,
      dontBlock: dont_block,
      maxWaitMs: remaining === undefined ? undefined : remaining - RESPONSE_MARGIN_MS,
    });
    return { events };
  },
  { cachedAuth: true },
);
