// GET /messages/matches_narrow: which of the listed messages match a narrow, with their search fields.
import { messagesMatchingNarrow } from '../../lib/actions/messages/fetch';
import { BadRequestError } from '../../lib/errors';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { MAX_MESSAGES_PER_FETCH } from '../../lib/models/message-range';
import { messageNarrowTerm } from '../../lib/models/narrow';
import { int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({ msg_ids: json(list(int)), narrow: json(list(messageNarrowTerm)) });
  // Upstream reads any number; ours reads at most one GET /messages' worth, as a bounded request.
  if (p.msg_ids.length > MAX_MESSAGES_PER_FETCH)
    throw new BadRequestError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  return { messages: await messagesMatchingNarrow(user, p.narrow, p.msg_ids) };
});
