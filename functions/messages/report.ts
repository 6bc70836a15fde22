// POST /messages/{message_id}/report: report a message to the organization's moderators.
import { checkReportMessage } from '../../lib/actions/messages/report';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_MESSAGE_TYPES } from '../../lib/models/realm';
import { string, stringIn } from '../../lib/validation/validators';

const REPORT_TYPE_KEYS = REPORT_MESSAGE_TYPES.map((t) => t.key);

export const handler = apiHandler(async ({ user, realm, params, pathInt }) => {
  const messageId = pathInt('message_id');
  const p = params({
    report_type: rawString(stringIn(REPORT_TYPE_KEYS)),
    description: rawString(string({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH })).optional(),
  });
  await checkReportMessage(realm, user, { messageId, reportType: p.report_type, description: p.description ?? '' });
  return {};
});
