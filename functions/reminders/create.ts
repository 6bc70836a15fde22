// POST /reminders
import { checkCreateReminder } from '../../lib/actions/reminders';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { MAX_TIMESTAMP } from '../../lib/clock';
import { int, intInRange } from '../../lib/validation/validators';
import { originOf } from '../invites/link';

export const handler = apiHandler(async ({ user, realm, params, event }) => {
  const p = params({
    message_id: json(int),
    scheduled_delivery_timestamp: json(intInRange(Number.MIN_SAFE_INTEGER, MAX_TIMESTAMP)),
    note: rawString().optional(),
  });
  const reminder = await checkCreateReminder(
    user,
    realm,
    { messageId: p.message_id, scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp, note: p.note },
    originOf(event.headers),
  );
  return { reminder_id: reminder.id };
});
