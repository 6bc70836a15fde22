// PATCH /realm: change organization settings (the ones lib/actions/realm-settings.ts serves).
import { checkUpdateRealm } from '../../lib/actions/realm-settings';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { MAX_REALM_DESCRIPTION_LENGTH, MAX_REALM_NAME_LENGTH } from '../../lib/models/realm';
import { bool, int, nonNegativeInt, str, string, union } from '../../lib/validation/validators';

/** A time limit: seconds or "unlimited", upstream's Json[int | str]; the action checks which. */
const timeLimit = union(int, str);

export const handler = apiHandler(async ({ user, params }) => {
  const updateRealm = checkUpdateRealm.authorize(user);
  const request = params({
    name: rawString(string({ maxLength: MAX_REALM_NAME_LENGTH })).optional(),
    description: rawString(string({ maxLength: MAX_REALM_DESCRIPTION_LENGTH })).optional(),
    allow_message_editing: json(bool).optional(),
    message_content_edit_limit_seconds: json(timeLimit).optional(),
    message_content_delete_limit_seconds: json(timeLimit).optional(),
    move_messages_within_stream_limit_seconds: json(timeLimit).optional(),
    move_messages_between_streams_limit_seconds: json(timeLimit).optional(),
    default_language: rawString().optional(),
    waiting_period_threshold: json(nonNegativeInt).optional(),
    enable_read_receipts: json(bool).optional(),
    enable_spectator_access: json(bool).optional(),
  });
  return updateRealm(request);
});
