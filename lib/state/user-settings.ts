// Register state "user_settings": the caller's personal settings (upstream's defaults for a
// spectator), with the server's choices for the settings UI. Upstream stopped sending the legacy
// top-level copies of these settings at feature level 439, below this server's level, so
// update_display_settings / update_global_notifications add nothing here.
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES, settingsOfUser } from '../models/user-settings';
import type { StateBuilder } from './registry';

/** "user_settings". */
export const userSettingsState: StateBuilder = async (ctx) => {
  if (!ctx.want('user_settings')) return {};
  return {
    user_settings: {
      ...settingsOfUser(ctx.user),
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
      emojiset_choices: EMOJISET_CHOICES,
    },
  };
};
