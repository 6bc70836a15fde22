// Register state for `reminders` and `scheduled_messages` (the caller's pending reminders and
// undelivered send-later messages, by delivery time, from one read of their scheduled messages;
// empty for spectators) and, with the `realm` section, `max_reminder_note_length`.
import { pendingReminders, pendingScheduledMessages, toApiReminder, toApiScheduledMessage } from '../models/scheduled-message';
import { renderPlainMarkdown } from '../render';
import * as scheduledStore from '../store/scheduled-messages';
import type { StateBuilder } from './registry';

export const remindersState: StateBuilder = async ({ realm, user, want }) => {
  const state: Record<string, unknown> = {};
  if (want('realm')) state.max_reminder_note_length = realm.limits.max_reminder_note_length;
  if (!want('reminders') && !want('scheduled_messages')) return state;
  const all = user ? await scheduledStore.listScheduledMessagesOfUser(user.id) : [];
  if (want('reminders')) state.reminders = pendingReminders(all).map((r) => toApiReminder(r, renderPlainMarkdown));
  if (want('scheduled_messages'))
    state.scheduled_messages = pendingScheduledMessages(all).map((m) => toApiScheduledMessage(m, renderPlainMarkdown));
  return state;
};
