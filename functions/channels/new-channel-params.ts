// The parameters of a new channel's settings that POST /users/me/subscriptions and POST
// /channels/create share (upstream's add_subscriptions_backend and create_channel), and the
// options doSubscribe takes from them (lib/actions/channels/new-channel.ts).
import type { ChannelGroupSetting, NewChannelOptions } from '../../lib/actions/channels/new-channel';
import { json, type Values } from '../../lib/http/params';
import { CHANNEL_GROUP_SETTINGS } from '../../lib/models/channel';
import { bool, int, str, string, union } from '../../lib/validation/validators';
import { groupSettingValue } from '../user-groups/params';

const groupParam = () => json(groupSettingValue).optional();

export const newChannelParams = {
  is_web_public: json(bool).optional(),
  is_default_stream: json(bool).optional(),
  message_retention_days: json(union(int, string())).optional(),
  topics_policy: json(str).optional(),
  folder_id: json(int).optional(),
  ...(Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((setting) => [setting, groupParam()])) as Record<
    ChannelGroupSetting,
    ReturnType<typeof groupParam>
  >),
};

/** The options of the parsed parameters. */
export const newChannelOptions = (p: Values<typeof newChannelParams>): NewChannelOptions => ({
  isWebPublic: p.is_web_public,
  isDefaultStream: p.is_default_stream,
  messageRetentionDays: p.message_retention_days,
  topicsPolicy: p.topics_policy,
  folderId: p.folder_id,
  groupSettings: Object.fromEntries(CHANNEL_GROUP_SETTINGS.flatMap((s) => (p[s] === undefined ? [] : [[s, p[s]]]))),
});
