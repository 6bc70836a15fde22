import { handler as create } from '../../../functions/reminders/create';
import { handler as list } from '../../../functions/reminders/list';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { advanceClock } from '../../../lib/clock';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const FUTURE = 4102444800;
const post = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/reminders', as, params });
const remindersOf = async (userId: number) =>
  (await scheduledStore.listScheduledMessagesOfUser(userId)).filter((m) => m.kind === 'reminder');

describe('POST /reminders', () => {
  it('schedules a reminder about a channel message and returns its id', async () => {
    const body = expectSuccess(
      await post('hamlet@zulip.com', { message_id: 7, scheduled_delivery_timestamp: FUTURE, note: 'check this  \n' }),
    );
    const stored = await scheduledStore.getScheduledMessageOfUser(10, body.reminder_id);
    expect(stored).toMatchObject({
      kind: 'reminder',
      senderId: 10,
      to: [10],
      reminderTargetMessageId: 7,
      scheduledDeliveryTimestamp: FUTURE,
    });
    expect(stored!.content).toBe(
      'You requested a reminder for #**Verona>test@7**. Note:\n > check this\n\n' +
        '@_**Othello, the Moor of Venice|12** [said](http://localhost:3000/#narrow/channel/3-Verona/topic/test/near/7):\n' +
        '```quote\n@**Iago** look at this.\n```',
    );
  });

  it('schedules a reminder about a direct message the caller received', async () => {
    const body = expectSuccess(await post('hamlet@zulip.com', { message_id: 11, scheduled_delivery_timestamp: FUTURE }));
    const stored = await scheduledStore.getScheduledMessageOfUser(10, body.reminder_id);
    expect(stored!.content.startsWith('You requested a reminder for the following direct message.\n\n@_**King Hamlet|10** [said](')).toBe(
      true,
    );
  });

  it('lists the new reminder in GET /reminders', async () => {
    const { reminder_id } = expectSuccess(await post('cordelia@zulip.com', { message_id: 14, scheduled_delivery_timestamp: FUTURE }));
    const body = expectSuccess(await call(list, { method: 'GET', path: '/reminders', as: 'cordelia@zulip.com' }));
    expect(body.reminders).toEqual([
      expect.objectContaining({
        reminder_id,
        to: [8],
        type: 'private',
        failed: false,
        reminder_target_message_id: 14,
        scheduled_delivery_timestamp: FUTURE,
      }),
    ]);
    expect(typeof body.reminders[0].rendered_content).toBe('string');
  });

  it('refuses a time that is not in the future', async () => {
    const before = await remindersOf(10);
    expectError(
      await post('hamlet@zulip.com', { message_id: 7, scheduled_delivery_timestamp: 1700000000 }),
      'Scheduled delivery time must be in the future.',
    );
    expect(await remindersOf(10)).toEqual(before);
  });

  it('refuses a time that has just passed on the service clock', async () => {
    advanceClock(10_000);
    const now = Math.floor((Date.now() + 10_000) / 1000);
    expectError(
      await post('hamlet@zulip.com', { message_id: 7, scheduled_delivery_timestamp: now - 1 }),
      'Scheduled delivery time must be in the future.',
    );
  });

  it.each([
    ['a private channel message the caller cannot read', 'cordelia@zulip.com', 3],
    ["someone else's direct message", 'hamlet@zulip.com', 2],
    ['a public channel message for a guest who is not subscribed', 'polonius@zulip.com', 1],
    ["the other organization's message", 'iago@zulip.com', 15],
    ['a message of the first organization, asked by king@lear.org', 'king@lear.org', 7],
    ['an unknown message', 'iago@zulip.com', 999999],
  ])('answers "Invalid message(s)" for %s', async (_label, as, messageId) => {
    expectError(await post(as, { message_id: messageId, scheduled_delivery_timestamp: FUTURE }), 'Invalid message(s)');
  });

  it('lets a member remind themself of a public channel message they did not receive', async () => {
    expectSuccess(await post('cordelia@zulip.com', { message_id: 9, scheduled_delivery_timestamp: FUTURE }));
  });

  it('refuses a note longer than max_reminder_note_length', async () => {
    const before = await remindersOf(10);
    expectError(
      await post('hamlet@zulip.com', { message_id: 7, scheduled_delivery_timestamp: FUTURE, note: 'x'.repeat(1001) }),
      'Maximum reminder note length: 1000 characters',
    );
    expect(await remindersOf(10)).toEqual(before);
  });

  it('accepts a note of exactly max_reminder_note_length characters', async () => {
    expectSuccess(await post('hamlet@zulip.com', { message_id: 7, scheduled_delivery_timestamp: FUTURE, note: 'x'.repeat(1000) }));
  });

  it.each([
    [{ scheduled_delivery_timestamp: FUTURE }, "Missing 'message_id' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ message_id: 7 }, "Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING'],
    [{ message_id: '"7"', scheduled_delivery_timestamp: FUTURE }, 'message_id is not an integer', 'BAD_REQUEST'],
  ])('validates parameters: %j', async (params, msg, code) => {
    expectError(await post('hamlet@zulip.com', params), msg, 400, code);
  });

  it("sends reminders add to the owner's queues only", async () => {
    const [owner, other] = await Promise.all([openQueue('hamlet@zulip.com'), openQueue('iago@zulip.com')]);
    const { reminder_id } = expectSuccess(await post('hamlet@zulip.com', { message_id: 6, scheduled_delivery_timestamp: FUTURE }));
    const events = await owner.drain();
    expect(events).toEqual([
      { type: 'reminders', op: 'add', reminders: [expect.objectContaining({ reminder_id, reminder_target_message_id: 6 })] },
    ]);
    expect(await other.drain()).toEqual([]);
  });
});

describe('GET /reminders', () => {
  it("lists only the caller's reminders, not send-later messages", async () => {
    const body = expectSuccess(await call(list, { method: 'GET', path: '/reminders', as: 'iago@zulip.com' }));
    expect(body.reminders.map((r: { reminder_id: number }) => r.reminder_id)).toEqual([1]);
    expect(body.reminders[0]).toMatchObject({ to: [11], type: 'private', reminder_target_message_id: 7, failed: false });
  });

  it('lists nothing for a user of the other organization', async () => {
    expect(expectSuccess(await call(list, { method: 'GET', path: '/reminders', as: 'king@lear.org' })).reminders).toEqual([]);
  });
});
