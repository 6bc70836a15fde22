import { wakeSearchDatabase } from '../search/client';
import { config, SERVICE_VERSION } from '../config';
import { BadRequestError, UnauthorizedError } from '../errors';
import { registerQueue, settleQueueStart } from '../events/queues';
import type { ApiEvent, ClientCapabilities } from '../models/event';
import { checkEventNarrow, type NarrowTerm } from '../models/event-narrow';
import type { Realm } from '../models/realm';
import { isGuest, type User } from '../models/user';
import * as realmsStore from '../store/realms';
import { STATE_BUILDERS } from '../state';
import { applyCaughtUpEvents } from '../state/catch-up';
import type { RegisterOptions, StateContext } from '../state/registry';

export type RegisterRequest = RegisterOptions & {
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  capabilities: ClientCapabilities;
  narrow: NarrowTerm[];
  allPublicStreams: boolean;
  /** Explicitly sent values, for the spectator checks (defaults differ for spectators). */
  clientGravatarSent: boolean | undefined;
  timeoutSecs: number;
  /** The caller's credentials' hash (lib/http/auth.ts credentialOf), kept on the queue. */
  credential?: string;
};

/** The register response's version fields, under our neutral names and upstream's. */
const versionFields = () => ({
  service_feature_level: SERVICE_VERSION.featureLevel,
  service_version: SERVICE_VERSION.version,
  service_merge_base: SERVICE_VERSION.mergeBase,
  zulip_feature_level: SERVICE_VERSION.featureLevel,
  zulip_version: SERVICE_VERSION.version,
  zulip_merge_base: SERVICE_VERSION.mergeBase,
});

/** The timeout a client should use for GET /events: the server's wait bound plus a margin. */
const longpollClientTimeoutSeconds = (): number => config.longPollSeconds() + 10;

/** Times POST /register reads the state again because events arrived while it read it. */
const MAX_STATE_REREADS = 3;

/** Which categories of state the client wants: fetch_event_types, else event_types, else all. */
const wantFunction = (req: Pick<RegisterRequest, 'eventTypes' | 'fetchEventTypes'>): ((category: string) => boolean) => {
  const wanted = req.fetchEventTypes ?? req.eventTypes;
  if (wanted === null) return () => true;
  const set = new Set(wanted);
  return (category) => set.has(category);
};

/**
 * POST /register. Checks the narrow and all_public_streams (upstream's messages), creates the
 * caller's queue first (so no event sent while the state is read is missed), then runs every
 * state builder concurrently, and catches up: the client gets every change exactly once, either
 * in the state or from the queue (after MAX_STATE_REREADS busy windows, possibly in both). A spectator (no user) gets no queue, only in an organization that
 * allows public access, and may not ask for gravatar hiding or subscriber lists.
 */
export const doEventsRegister = async (realm: Realm, user: User | undefined, req: RegisterRequest): Promise<Record<string, unknown>> => {
  if (!user) {
    if (!realm.enableSpectatorAccess || realm.deactivated) throw new UnauthorizedError();
    if (req.clientGravatarSent === true) throw new BadRequestError("Invalid 'client_gravatar' parameter for anonymous request");
    if (req.includeSubscribers !== 'false') throw new BadRequestError("Invalid 'include_subscribers' parameter for anonymous request");
  }
  if (req.allPublicStreams && (!user || isGuest(user))) throw new BadRequestError('User not authorized for this query');
  const narrow = checkEventNarrow(req.narrow);
  // A session starts here: wake a paused search database now (its resume takes seconds), while
  // the state is read, so that the session's first search rarely waits (lib/search/client.ts).
  const waking = user ? wakeSearchDatabase() : Promise.resolve();

  const queue = user
    ? await registerQueue(user, {
        eventTypes: req.eventTypes,
        capabilities: req.capabilities,
        narrow,
        allPublicStreams: req.allPublicStreams,
        applyMarkdown: req.applyMarkdown,
        clientGravatar: req.clientGravatar,
        slimPresence: req.slimPresence,
        timeoutSecs: req.timeoutSecs,
        ...(req.credential !== undefined ? { credential: req.credential } : {}),
      })
    : undefined;

  // A fresh context per read: builders cache what they load in it. With a queue, each read takes
  // the organization as stored now (one GetItem): a settings change (PATCH /realm) that landed
  // before the queue existed, or whose event the catch-up below skips, is then in the state.
  const readState = async (): Promise<Record<string, unknown>[]> => {
    const ctx: StateContext = {
      realm: queue ? ((await realmsStore.get(realm.id, { consistent: true })) ?? realm) : realm,
      user,
      want: wantFunction(req),
      wantsAll: (req.fetchEventTypes ?? req.eventTypes) === null,
      capabilities: req.capabilities,
      options: {
        applyMarkdown: req.applyMarkdown,
        clientGravatar: req.clientGravatar,
        includeSubscribers: req.includeSubscribers,
        slimPresence: req.slimPresence,
        presenceHistoryLimitDays: req.presenceHistoryLimitDays,
      },
    };
    return Promise.all(STATE_BUILDERS.map((build) => build(ctx)));
  };
  let sections = await readState();
  // Catch up, as upstream's apply_events does: an event the queue would deliver that arrived while
  // the state was read may already be in the state. Start the queue after it and read the state
  // again (which then includes it), until no such event arrived during a read.
  if (user && queue) {
    const skipped: ApiEvent[] = [];
    for (let reread = 0; reread < MAX_STATE_REREADS; reread += 1) {
      const { settled, events } = await settleQueueStart(user, queue.queueId);
      if (settled) break;
      skipped.push(...events);
      sections = [applyCaughtUpEvents(Object.assign({}, ...(await readState())), skipped)];
    }
  }
  await waking;
  return {
    queue_id: queue?.queueId ?? null,
    ...(queue ? { last_event_id: -1, idle_queue_timeout_secs: queue.timeoutSecs } : {}),
    ...Object.assign({}, ...sections),
    ...versionFields(),
    event_queue_longpoll_timeout_seconds: longpollClientTimeoutSeconds(),
  };
};
