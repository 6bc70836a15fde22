// POST /messages/flags/narrow: add or remove a personal flag on the messages of a narrow around an anchor.
import { updateMessageFlagsForNarrow } from '../../lib/actions/messages/flags';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { checkAnchorExclusion, parseAnchor } from '../../lib/models/message-range';
import { messageNarrowTerm } from '../../lib/models/narrow';
import { bool, list, nonNegativeInt, nullable } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  // Declaration order is upstream's validation order; the narrow may be null (every message).
  const p = params({
    anchor: rawString(),
    flag: rawString(),
    include_anchor: json(bool).default(true),
    narrow: json(nullable(list(messageNarrowTerm))),
    num_after: json(nonNegativeInt),
    num_before: json(nonNegativeInt),
    op: rawString(),
  });
  const anchor = parseAnchor(p.anchor);
  checkAnchorExclusion(p.num_before, p.num_after, p.include_anchor);
  return updateMessageFlagsForNarrow(user, {
    anchor,
    numBefore: p.num_before,
    numAfter: p.num_after,
    includeAnchor: p.include_anchor,
    narrow: p.narrow ?? [],
    flag: p.flag,
    op: p.op,
  });
});
