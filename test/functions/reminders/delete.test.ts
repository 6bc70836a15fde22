import { handler as remove } from '../../../functions/reminders/delete';
import { handler as create } from '../../../functions/reminders/create';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const del = (as: string, reminderId: number | string) =>
  call(remove, {
    method: 'DELETE',
    path: `/reminders/${reminderId}`,
    routeKey: 'DELETE /reminders/{reminder_id}',
    pathParameters: { reminder_id: String(reminderId) },
    as,
  });

const FUTURE = 4102444800;
const newReminder = async (as: string, messageId: number): Promise<number> =>
  expectSuccess(
    await call(create, { method: 'POST', path: '/reminders', as, params: { message_id: messageId, scheduled_delivery_timestamp: FUTURE } }),
  ).reminder_id;

describe('DELETE /reminders/{reminder_id}', () => {
  it("deletes the caller's own reminder", async () => {
    expectSuccess(await del('iago@zulip.com', 1));
    expect(await scheduledStore.getScheduledMessageOfUser(11, 1)).toBeUndefined();
  });

  it('answers 404 "Reminder does not exist" for a second delete', async () => {
    expectError(await del('iago@zulip.com', 1), 'Reminder does not exist', 404);
  });

  it("answers 404 for another user's reminder and keeps it", async () => {
    expectError(await del('iago@zulip.com', 2), 'Reminder does not exist', 404);
    expect(await scheduledStore.getScheduledMessageOfUser(10, 2)).toMatchObject({ id: 2, kind: 'reminder' });
  });

  it('answers 404 for a scheduled message that is not a reminder and keeps it', async () => {
    expectError(await del('iago@zulip.com', 3), 'Reminder does not exist', 404);
    expect(await scheduledStore.getScheduledMessageOfUser(11, 3)).toMatchObject({ id: 3, kind: 'send_later' });
  });

  it('answers 404 for an unknown id', async () => {
    expectError(await del('hamlet@zulip.com', 999999), 'Reminder does not exist', 404);
  });

  it('answers 404 to king@lear.org for every reminder of the first organization', async () => {
    for (const id of [1, 2, 3]) expectError(await del('king@lear.org', id), 'Reminder does not exist', 404);
    expect(await scheduledStore.getScheduledMessageOfUser(10, 2)).toBeDefined();
  });

  it('is a 404 for a path id that is not a number', async () => {
    expect((await del('hamlet@zulip.com', 'x1')).status).toBe(404);
  });

  it('gives one success and one 404 to two concurrent deletes', async () => {
    const id = await newReminder('hamlet@zulip.com', 6);
    const results = await Promise.all([del('hamlet@zulip.com', id), del('hamlet@zulip.com', id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    expectError(
      results.find((r) => r.status === 404)!,
      'Reminder does not exist',
      404,
    );
    expect(await scheduledStore.getScheduledMessageOfUser(10, id)).toBeUndefined();
  });

  it("sends reminders remove to the owner's queues only", async () => {
    const id = await newReminder('hamlet@zulip.com', 6);
    const [owner, other] = await Promise.all([openQueue('hamlet@zulip.com'), openQueue('iago@zulip.com')]);
    expectSuccess(await del('hamlet@zulip.com', id));
    expect(await owner.drain()).toEqual([{ type: 'reminders', op: 'remove', reminder_id: id }]);
    expect(await other.drain()).toEqual([]);
  });

  it('sends no event for a refused delete', async () => {
    const owner = await openQueue('hamlet@zulip.com');
    expectError(await del('iago@zulip.com', 2), 'Reminder does not exist', 404);
    expect(await owner.drain()).toEqual([]);
  });
});
