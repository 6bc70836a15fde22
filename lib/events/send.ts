// Sending an event: it is appended once to the organization's stream (audience 'realm') or to the
// stream of each listed user. Queues pull from their streams when polled, so the cost of a send
// does not depend on how many queues will receive it. Call it after the write it describes.
import { mapLimited } from '../concurrency';
import { nowMs } from '../clock';
import { config } from '../config';
import type { ApiEvent, Audience } from '../models/event';
import * as streams from '../store/event-streams';
import { eventKeys } from '../store/keys';

/**
 * Appends in flight at once for one send (each is two sequential writes): a channel of 5,000
 * subscribers is 5,000 appends, and this keeps one send from opening thousands of connections or
 * taking a table's whole burst capacity.
 */
export const FANOUT_CONCURRENCY = 64;

/** The streams an audience reads from: every shard of the organization's stream, or each user's. */
const streamsFor = (realmId: number, audience: Audience): string[] =>
  audience === 'realm'
    ? Array.from({ length: config.realmStreamShards() }, (_, shard) => eventKeys.realmStream(realmId, shard))
    : [...new Set(audience.users)].map(eventKeys.userStream);

/** A JSON round trip, as upstream does in tests: an event that cannot be serialized fails here. */
const serializable = <E extends ApiEvent>(event: E): E => {
  const { id: _id, ...payload } = JSON.parse(JSON.stringify(event)) as E & { id?: unknown };
  return payload as unknown as E;
};

const appendAll = async (appends: { stream: string; event: ApiEvent }[]): Promise<void> => {
  await mapLimited(appends, FANOUT_CONCURRENCY, ({ stream, event }) => streams.append(stream, event, nowMs));
};

/**
 * Delivers `event` to every live queue of the audience (each queue applies its own filters when it
 * reads it). Writes two items per stream (the sequence number and the event), at most
 * FANOUT_CONCURRENCY streams at a time.
 */
export const sendEvent = async (realmId: number, event: ApiEvent, audience: Audience): Promise<void> => {
  const payload = serializable(event);
  await appendAll(streamsFor(realmId, audience).map((stream) => ({ stream, event: payload })));
};

/**
 * Delivers to each listed user their own version of an event (a message event with the user's own
 * `flags`), to their own stream, with the same bounded fan-out as sendEvent. A user listed twice
 * gets the first of their events.
 */
export const sendEventPerRecipient = async (deliveries: { userId: number; event: ApiEvent }[]): Promise<void> => {
  const seen = new Set<number>();
  const appends = deliveries
    .filter(({ userId }) => !seen.has(userId) && seen.add(userId))
    .map(({ userId, event }) => ({ stream: eventKeys.userStream(userId), event: serializable(event) }));
  await appendAll(appends);
};
