// Register state for `reminders` (the caller's pending reminders, by delivery time; empty for
// spectators) and, with the `realm` section, `max_reminder_note_length`.
import { pendingReminders, toApiReminder } from '../models/scheduled-message';
import { renderPlainMarkdown } from '../render';
import * as scheduledStore from '../store/scheduled-messages';
import type { StateBuilder } from './registry';

export const remindersState: StateBuilder = async ({ realm, user, want }) => {
  const state: Record<string, unknown> = {};
  if (want('realm')) state.max_reminder_note_length = realm.limits.max_reminder_note_length;
  if (want('reminders')) {
    const pending = user ? pendingReminders(await scheduledStore.listScheduledMessagesOfUser(user.id)) : [];
    state.reminders = pending.map((r) => toApiReminder(r, renderPlainMarkdown));
  }
  return state;
};
