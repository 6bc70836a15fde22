// POST /register: creates an event queue and returns the initial state.
import { doEventsRegister } from '../../lib/actions/register';
import { ApiError, ErrorCode } from '../../lib/errors';
import { optionalAuthApiHandler } from '../../lib/http/api-handler';
import { credentialOf } from '../../lib/http/auth';
import { REGISTER_PARAMS } from '../../lib/http/register-params';
import { QUEUE_TIMEOUT } from '../../lib/models/event-queue';
import { UnauthorizedError } from '../../lib/errors';

export const handler = optionalAuthApiHandler(async ({ user, realm, params, event }) => {
  const p = params(REGISTER_PARAMS);
  if (!realm) throw new UnauthorizedError();
  if (p.idle_queue_timeout !== undefined && p.queue_lifespan_secs !== undefined) {
    throw new ApiError("Can't decide between 'idle_queue_timeout' and 'queue_lifespan_secs' arguments", {
      code: ErrorCode.REQUEST_CONFUSING_VAR,
    });
  }
  return doEventsRegister(realm, user, {
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar ?? user !== undefined,
    clientGravatarSent: p.client_gravatar,
    slimPresence: p.slim_presence,
    presenceHistoryLimitDays: p.presence_history_limit_days,
    allPublicStreams: p.all_public_streams,
    includeSubscribers: p.include_subscribers,
    eventTypes: p.event_types ?? null,
    fetchEventTypes: p.fetch_event_types ?? null,
    narrow: p.narrow,
    capabilities: p.client_capabilities,
    timeoutSecs: p.idle_queue_timeout !== undefined ? Number(p.idle_queue_timeout) : (p.queue_lifespan_secs ?? QUEUE_TIMEOUT.default),
    // The queue's polls are then authenticated by the queue item (GET /events).
    credential: user && event.headers?.authorization ? credentialOf(event.headers.authorization) : undefined,
  });
});
