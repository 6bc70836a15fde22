import { int, list, union, type Validator } from '../validation/validators';

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
  /** Why the delivery failed (upstream's failure_message), for the sender's notice. */
  failureMessage?: string;
  /** A send-later message: whether its sender has it read once sent (upstream's read_by_sender). */
  readBySender?: boolean;
  /** The client that scheduled or last edited it (upstream's sending_client). */
  sendingClient?: string;
  /**
   * The id its delivery claimed for the message it sends: set before the message is written, so
   * that a retried delivery writes that message or finds it, never a second one.
   */
  deliveryMessageId?: number;
};

/** How late upstream still sends a send-later message (SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES). */
export const SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS = 10 * 60;

/** Whether the message is one GET /scheduled_messages lists: a send-later message not delivered. */
const isPendingSendLater = (m: ScheduledMessage): boolean => m.kind === 'send_later' && m.delivered !== true;

/** A user's undelivered send-later messages (failed ones included), by delivery time (upstream's get_undelivered_scheduled_messages). */
export const pendingScheduledMessages = (messages: ScheduledMessage[]): ScheduledMessage[] =>
  messages.filter(isPendingSendLater).sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);

/**
 * The scheduled message dict of GET /scheduled_messages, register's `scheduled_messages` and the
 * `scheduled_messages` events (upstream's ScheduledMessage.to_dict): `to` is the channel's id, or
 * the direct message's recipients other than the sender (the sender alone for a message to self).
 * `render` as for toApiReminder: a seeded message is stored without its rendering.
 */
export const toApiScheduledMessage = (m: ScheduledMessage, render: (content: string) => string): Record<string, unknown> => ({
  scheduled_message_id: m.id,
  to: m.streamId ?? m.to,
  type: m.streamId === null ? 'private' : 'stream',
  content: m.content,
  rendered_content: m.renderedContent ?? render(m.content),
  ...(m.streamId === null ? {} : { topic: m.topic }),
  scheduled_delivery_timestamp: m.scheduledDeliveryTimestamp,
  failed: m.failed,
});

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

/** The `to` of POST and PATCH /scheduled_messages: upstream's Json[int | list[int]]. */
export const scheduledTo: Validator<number | number[]> = union(int, list(int));
