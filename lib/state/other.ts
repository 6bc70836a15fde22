// Register sections for features this service has no data for yet (default channel groups,
// integrations, billing, video-call tokens). Clients require their keys, so
// each is present when wanted, with the value of an organization that has none of these objects;
// the organization's code playgrounds; the bots the caller administers, from the user list; the
// organization's default channels; and
// the settings new accounts start with.
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, realmUserSettingsDefaults } from '../models/user-settings';
import { botObject, isAdmin, isGuest } from '../models/user';
import { sortPlaygrounds, toApiPlayground } from '../models/playground';
import * as defaultChannelsStore from '../store/default-channels';
import * as playgroundsStore from '../store/playgrounds';
import { realmUsers } from './context';
import type { StateBuilder } from './registry';

/** Sections whose value is fixed while the service stores nothing for them, by category. */
const EMPTY_SECTIONS: Record<string, Record<string, unknown>> = {
  realm_embedded_bots: { realm_embedded_bots: [] },
  realm_incoming_webhook_bots: { realm_incoming_webhook_bots: [] },
  default_stream_groups: { realm_default_stream_groups: [] },
  video_calls: { has_zoom_token: false },
  realm_billing: { realm_billing: { has_pending_sponsorship_request: false } },
};

/** The empty collections. */
export const emptySectionsState: StateBuilder = async (ctx) => {
  const sections = Object.entries(EMPTY_SECTIONS).filter(([category]) => ctx.want(category));
  return Object.assign({}, ...sections.map(([, value]) => value));
};

/** "realm_playgrounds": the organization's code playgrounds, in id order. */
export const playgroundsState: StateBuilder = async (ctx) => {
  if (!ctx.want('realm_playgrounds')) return {};
  return { realm_playgrounds: sortPlaygrounds(await playgroundsStore.listPlaygrounds(ctx.realm.id)).map(toApiPlayground) };
};

/** "realm_user_settings_defaults": the settings a new account starts with. */
export const realmUserSettingsDefaultsState: StateBuilder = async (ctx) => {
  if (!ctx.want('realm_user_settings_defaults')) return {};
  const { timezone: _timezone, ...defaults } = realmUserSettingsDefaults(ctx.realm);
  return {
    realm_user_settings_defaults: {
      ...defaults,
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
      emojiset_choices: EMOJISET_CHOICES,
    },
  };
};

/** "realm_bot": the bots the caller administers (every bot for administrators, else their own). */
export const realmBotsState: StateBuilder = async (ctx) => {
  if (!ctx.want('realm_bot')) return {};
  const user = ctx.user;
  if (!user) return { realm_bots: [] };
  const bots = (await realmUsers(ctx)).filter((u) => u.isBot && (isAdmin(user) || u.botOwnerId === user.id));
  return {
    realm_bots: bots.sort((a, b) => a.id - b.id).map(botObject),
  };
};

/**
 * "default_streams": the ids of the organization's default channels (feature level 330), read
 * consistently; none for guests and spectators, as upstream.
 */
export const defaultStreamsState: StateBuilder = async (ctx) => {
  if (!ctx.want('default_streams')) return {};
  if (!ctx.user || isGuest(ctx.user)) return { realm_default_streams: [] };
  return { realm_default_streams: await defaultChannelsStore.listDefaultChannelIds(ctx.realm.id, { consistent: true }) };
};
