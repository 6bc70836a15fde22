import { handler as register } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';

const fetchState = async (as: string, types: string[]) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: types } }));

describe('POST /register: reminders and max_reminder_note_length', () => {
  it("lists the caller's pending reminders, not send-later messages", async () => {
    const body = await fetchState('iago@zulip.com', ['reminders']);
    expect(body.reminders).toEqual([
      {
        reminder_id: 1,
        to: [11],
        type: 'private',
        content: 'You requested a reminder for #**Verona>test@7**.\n\nNote:\n > check this',
        rendered_content: expect.any(String),
        scheduled_delivery_timestamp: 4102444800,
        failed: false,
        reminder_target_message_id: 7,
      },
    ]);
  });

  it("gives king@lear.org none of the first organization's reminders", async () => {
    expect((await fetchState('king@lear.org', ['reminders'])).reminders).toEqual([]);
  });

  it('returns max_reminder_note_length with the realm section', async () => {
    const body = await fetchState('hamlet@zulip.com', ['realm']);
    expect(body.max_reminder_note_length).toBe(1000);
  });
});
