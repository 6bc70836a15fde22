// DELETE /events: deletes the caller's queue.
import { deleteQueue } from '../../lib/events/queues';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, params }) => {
  const { queue_id } = params({ queue_id: rawString() });
  await deleteQueue(user, queue_id);
});
