// The deliveryRecovery function, fed by the main table's stream (never over HTTP) with every new
// message that still owes its recipients their delivery: finishes those whose sending request died
// before handing them on (lib/actions/messages/delivery.ts doRecoverDeliveries). Lambda retries a
// failed batch, halving it, then sends it to the dead-letter queue (serverless.yml).
import { doRecoverDeliveries, type StreamRecord } from '../../lib/actions/messages/delivery';

export const handler = async (event: { Records: StreamRecord[] }): Promise<void> => doRecoverDeliveries(event.Records);
