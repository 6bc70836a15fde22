// The messageMove job's Lambda function, invoked asynchronously (never over HTTP) by a topic move
// of more than MOVE_INLINE_MESSAGES messages and by each of its own runs that leaves some: moves
// the next MOVE_JOB_MESSAGES of them, or ends the move (lib/actions/messages/move.ts doMessageMove).
// Lambda retries a failed run twice.
import { JOBS } from '../../lib/actions/jobs';
import type { MoveJob } from '../../lib/actions/messages/move';

export const handler = async (job: MoveJob): Promise<void> => (await JOBS.messageMove.load())(job);
