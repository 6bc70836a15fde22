// Sending an event: it is appended once to the organization's stream (audience 'realm') or to the
// stream of each listed user. Queues pull from their streams when polled, so the cost of a send
// does not depend on how many queues will receive it. Call it after the write it describes.
import { nowMs } from '../clock';
import * as streams from '../store/event-streams';
import { eventKeys } from '../store/keys';
import type { ApiEvent, Audience } from './types';

/** The streams an audience reads from. */
export const streamsFor = (realmId: number, audience: Audience): string[] =>
  audience === 'realm' ? [eventKeys.realmStream(realmId)] : [...new Set(audience.users)].map(eventKeys.userStream);

/**
 * Delivers `event` to every live queue of the audience (each queue applies its own filters when it
 * reads it). Writes two items per stream: the sequence number and the event.
 */
export const sendEvent = async (realmId: number, event: ApiEvent, audience: Audience): Promise<void> => {
  // A JSON round trip, as upstream does in tests: an event that cannot be serialized fails here.
  const { id: _id, ...payload } = JSON.parse(JSON.stringify(event)) as ApiEvent;
  await Promise.all(streamsFor(realmId, audience).map((stream) => streams.append(stream, payload as ApiEvent, nowMs)));
};
