// PATCH /realm: change organization settings (the ones lib/actions/organization/settings.ts serves).
import { checkUpdateRealm } from '../../lib/actions/organization/settings';
import { DIGEST_WEEKDAY_VALUES } from '../../lib/models/digest';
import type { SettingChange } from '../../lib/actions/groups/manage';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString, type ParamSpec } from '../../lib/http/params';
import {
  MAX_REALM_DESCRIPTION_LENGTH,
  MAX_REALM_NAME_LENGTH,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
  REALM_GROUP_SETTINGS,
  REALM_PROPERTIES,
  type RealmPropertyName,
  type RealmPropertyValue,
} from '../../lib/models/realm';
import { bool, int, intIn, nonNegativeInt, str, string, union } from '../../lib/validation/validators';
import { settingChange } from '../user-groups/params';

/** A time limit: seconds or "unlimited", upstream's Json[int | str]; the action checks which. */
const timeLimit = union(int, str);

/** How each simple setting is sent: JSON booleans and integers, raw text. */
const PROPERTY_PARAMS: Record<RealmPropertyName, ParamSpec<RealmPropertyValue | undefined>> = {
  ...(Object.fromEntries(Object.keys(REALM_PROPERTIES).map((name) => [name, json(bool).optional()])) as Record<
    RealmPropertyName,
    ParamSpec<RealmPropertyValue | undefined>
  >),
  video_chat_provider: json(int).optional(),
  digest_weekday: json(intIn(DIGEST_WEEKDAY_VALUES)).optional(),
  default_code_block_language: rawString().optional(),
  welcome_message_custom_text: rawString(string({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH })).optional(),
};

const GROUP_SETTING_PARAMS: Record<string, ParamSpec<SettingChange | undefined>> = Object.fromEntries(
  Object.keys(REALM_GROUP_SETTINGS).map((name) => [name, json(settingChange).optional()]),
);

const defined = <T>(values: Record<string, T | undefined>): Record<string, T> =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Record<string, T>;

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
    moderation_request_channel_id: json(int).optional(),
    new_stream_announcements_stream_id: json(int).optional(),
    signup_announcements_stream_id: json(int).optional(),
    zulip_update_announcements_stream_id: json(int).optional(),
  });
  const properties = defined(params(PROPERTY_PARAMS));
  const groupSettings = defined(params(GROUP_SETTING_PARAMS));
  return updateRealm({ ...request, properties, groupSettings });
});
