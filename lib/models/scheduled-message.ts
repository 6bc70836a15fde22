/** A scheduled message of a user: a reminder, or a message to send later. */
export type ScheduledMessage = {
  id: number;
  realmId: number;
  senderId: number;
  kind: 'reminder' | 'send_later';
  to: number[];
  streamId: number | null;
  topic: string;
  content: string;
  renderedContent?: string;
  scheduledDeliveryTimestamp: number;
  reminderTargetMessageId: number | null;
  failed: boolean;
  delivered?: boolean;
};

/** The reminders among a user's scheduled messages that are still to be delivered, by delivery time. */
export const pendingReminders = (messages: ScheduledMessage[]): ScheduledMessage[] =>
  messages
    .filter((m) => m.kind === 'reminder' && m.delivered !== true)
    .sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);

/**
 * The reminder dict of GET /reminders, register's `reminders` and `reminders` add events. A
 * reminder stored without its rendering gets it from `render` (lib/render's renderPlainMarkdown:
 * the caller passes it, as lib/models does not import the renderer, which imports lib/models).
 */
export const toApiReminder = (r: ScheduledMessage, render: (content: string) => string): Record<string, unknown> => ({
  reminder_id: r.id,
  to: r.to,
  type: 'private',
  content: r.content,
  rendered_content: r.renderedContent ?? render(r.content),
  scheduled_delivery_timestamp: r.scheduledDeliveryTimestamp,
  failed: r.failed,
  reminder_target_message_id: r.reminderTargetMessageId,
});
