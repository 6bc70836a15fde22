// PATCH /streams/{stream_id}: change a channel's name, description, privacy, retention and
// permission groups and folder, or unarchive it (is_archived=false).
import { checkUpdateChannel } from '../../lib/actions/channels/update';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../lib/actions/channels/subscriptions';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool, int, nullable, string, union } from '../../lib/validation/validators';
import { settingChange } from '../user-groups/params';

export const handler = apiHandler(async ({ user, realm, params, pathInt, hasParam }) => {
  const channelId = pathInt('stream_id');
  const p = params({
    new_name: rawString().optional(),
    description: rawString(string({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH })).optional(),
    is_private: json(bool).optional(),
    is_web_public: json(bool).optional(),
    history_public_to_subscribers: json(bool).optional(),
    message_retention_days: json(union(int, string())).optional(),
    is_archived: json(bool).optional(),
    folder_id: json(nullable(int)).optional(),
    can_add_subscribers_group: json(settingChange).optional(),
    can_remove_subscribers_group: json(settingChange).optional(),
    can_administer_channel_group: json(settingChange).optional(),
    can_delete_any_message_group: json(settingChange).optional(),
    can_delete_own_message_group: json(settingChange).optional(),
    can_move_messages_out_of_channel_group: json(settingChange).optional(),
    can_move_messages_within_channel_group: json(settingChange).optional(),
    can_send_message_group: json(settingChange).optional(),
    can_subscribe_group: json(settingChange).optional(),
    can_resolve_topics_group: json(settingChange).optional(),
    can_create_topic_group: json(settingChange).optional(),
  });
  const {
    new_name,
    description,
    is_private,
    is_web_public,
    history_public_to_subscribers,
    message_retention_days,
    is_archived,
    folder_id,
    ...groups
  } = p;
  await checkUpdateChannel(realm, user, channelId, {
    newName: new_name,
    description,
    isPrivate: is_private,
    isWebPublic: is_web_public,
    historyPublicToSubscribers: history_public_to_subscribers,
    messageRetentionDays: message_retention_days,
    isArchived: is_archived,
    // Sent as null: out of its folder (a JSON null reads as absent otherwise).
    folderId: hasParam('folder_id') ? (folder_id ?? null) : undefined,
    settings: Object.fromEntries(Object.entries(groups).filter(([, change]) => change !== undefined)),
  });
});
