// GET /messages: messages of a narrow around an anchor, or listed by id.
import { fetchMessages } from '../../lib/actions/messages/fetch';
import { ApiError, BadRequestError, ErrorCode } from '../../lib/errors';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { checkRangeCounts, MAX_MESSAGES_PER_FETCH, parseAnchor, type Anchor } from '../../lib/models/message-range';
import { messageNarrowTerm } from '../../lib/models/narrow';
import { bool, list, nonNegativeInt } from '../../lib/validation/validators';

const INCOMPATIBLE = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';

export const handler = apiHandler(async ({ user, realm, params }) => {
  // Declaration order is upstream's validation order.
  const p = params({
    allow_empty_topic_name: json(bool).default(false),
    anchor: rawString().optional(),
    apply_markdown: json(bool).default(true),
    client_gravatar: json(bool).default(true),
    message_ids: json(list(nonNegativeInt)).optional(),
    include_anchor: json(bool).default(true),
    narrow: json(list(messageNarrowTerm)).default([]),
    num_after: json(nonNegativeInt).default(0),
    num_before: json(nonNegativeInt).default(0),
    use_first_unread_anchor: json(bool).default(false),
  });
  let anchor: Anchor | undefined;
  if (p.message_ids !== undefined) {
    if (p.num_before > 0 || p.num_after > 0 || p.anchor !== undefined || p.use_first_unread_anchor) {
      throw new ApiError(`Unsupported parameter combination: ${INCOMPATIBLE}`, {
        code: ErrorCode.BAD_REQUEST,
        data: { parameters: INCOMPATIBLE },
      });
    }
    if (p.message_ids.length > MAX_MESSAGES_PER_FETCH)
      throw new BadRequestError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  } else {
    if (p.use_first_unread_anchor) anchor = 'first_unread';
    else if (p.anchor === undefined) throw new BadRequestError("Missing 'anchor' argument.");
    else anchor = parseAnchor(p.anchor);
    checkRangeCounts(p.num_before, p.num_after, p.include_anchor);
  }
  return fetchMessages(user, realm, {
    anchor,
    numBefore: p.num_before,
    numAfter: p.num_after,
    includeAnchor: p.message_ids === undefined ? p.include_anchor : false,
    narrow: p.narrow,
    messageIds: p.message_ids,
    applyMarkdown: p.apply_markdown,
    clientGravatar: p.client_gravatar,
    allowEmptyTopicName: p.allow_empty_topic_name,
  });
});
