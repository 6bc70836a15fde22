// The searchIndex function, fed by the main table's stream (never over HTTP) with every change to
// a message item: writes those messages' search rows (lib/actions/messages/search-index.ts
// doIndexMessages). Lambda retries a failed batch, halving it, then sends it to the dead-letter
// queue (serverless.yml); a replayed record never replaces a newer version.
import { doIndexMessages, type IndexStreamRecord } from '../../lib/actions/messages/search-index';

export const handler = async (event: { Records: IndexStreamRecord[] }): Promise<void> => {
  await doIndexMessages(event.Records);
};
