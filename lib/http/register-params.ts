// The parameters of POST /register, shared by the handler and its tests.
import { BadRequestError } from '../errors';
import { QUEUE_TIMEOUT } from '../models/event-queue';
import { narrowTerm } from '../models/event-narrow';
import { MESSAGES } from '../validation/messages';
import { bool, int, list, literal, object, str, type Validator } from '../validation/validators';
import { json, rawString } from './params';

const CAPABILITY_NAMES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
  'individual_emoji_changes',
] as const;

/** Unknown capability keys are ignored, as upstream's TypedDict does. */
const capabilities = object(
  Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, bool])) as Record<(typeof CAPABILITY_NAMES)[number], Validator<boolean>>,
  {
    optional: CAPABILITY_NAMES,
    allowExtra: true,
  },
);

/** Seconds, or the string `mobile` (with or without JSON quotes). */
const idleQueueTimeout: Validator<string> = (value, path) => {
  if (value === 'mobile' || value === '"mobile"') return String(QUEUE_TIMEOUT.mobile);
  const seconds = /^-?\d+$/.test(value as string) ? Number(value) : NaN;
  if (!Number.isInteger(seconds) || seconds < QUEUE_TIMEOUT.min || seconds > QUEUE_TIMEOUT.max) {
    throw new BadRequestError(
      MESSAGES.invalidWith(path, `must be a number of seconds from ${QUEUE_TIMEOUT.min} to ${QUEUE_TIMEOUT.max}, or "mobile"`),
    );
  }
  return String(seconds);
};

/** The older name: 0 means the default; otherwise the same bounds. */
const queueLifespan: Validator<number> = (value, path) => {
  const seconds = int(value, path);
  if (seconds === 0) return QUEUE_TIMEOUT.default;
  return Number(idleQueueTimeout(String(seconds), path));
};

export const REGISTER_PARAMS = {
  apply_markdown: json(bool).default(false),
  client_gravatar: json(bool).optional(),
  slim_presence: json(bool).default(false),
  presence_history_limit_days: json(int).optional(),
  all_public_streams: json(bool).default(false),
  include_subscribers: rawString(literal('true', 'false', 'partial')).default('false'),
  event_types: json(list(str)).optional(),
  fetch_event_types: json(list(str)).optional(),
  narrow: json(list(narrowTerm)).default([]),
  client_capabilities: json(capabilities).default({}),
  idle_queue_timeout: rawString(idleQueueTimeout).optional(),
  queue_lifespan_secs: json(queueLifespan).optional(),
};
