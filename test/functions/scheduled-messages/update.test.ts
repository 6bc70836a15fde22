import { listInProcessSchedules } from '../../../lib/store/schedules';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { FUTURE, deleteScheduled, editScheduled, listScheduled, scheduleId, storedOf, warmUp } from './helpers';

const [HAMLET, IAGO, OTHELLO] = [10, 11, 12];
const LATER = FUTURE + 3600;
const channelMessage = () =>
  scheduleId('hamlet@zulip.com', { type: 'stream', to: 3, topic: 'plans', content: 'first', scheduled_delivery_timestamp: FUTURE });

warmUp();

describe('PATCH /scheduled_messages/{scheduled_message_id}', () => {
  it('changes the content and sends scheduled_messages update to the owner only', async () => {
    const id = await channelMessage();
    const [mine, othello] = [await openQueue('hamlet@zulip.com'), await openQueue('othello@zulip.com')];
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { content: 'second *try*' }));
    const expected = {
      scheduled_message_id: id,
      to: 3,
      type: 'stream',
      topic: 'plans',
      content: 'second *try*',
      rendered_content: '<p>second <em>try</em></p>',
      scheduled_delivery_timestamp: FUTURE,
      failed: false,
    };
    expect(await mine.drain()).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: expected }]);
    expect(await othello.drain()).toEqual([]);
    expect((await listScheduled('hamlet@zulip.com')).find((m) => m.scheduled_message_id === id)).toEqual(expected);
  });

  it('moves the delivery time and its schedule', async () => {
    const id = await channelMessage();
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { scheduled_delivery_timestamp: LATER }));
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({ scheduledDeliveryTimestamp: LATER });
    expect(listInProcessSchedules().find((s) => s.name.endsWith(`-${id}`))).toMatchObject({ atSeconds: LATER });
  });

  it('changes a channel message into a direct message, dropping its topic', async () => {
    const id = await channelMessage();
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { type: 'direct', to: [OTHELLO] }));
    const listed = (await listScheduled('hamlet@zulip.com')).find((m) => m.scheduled_message_id === id);
    expect(listed).toMatchObject({ type: 'private', to: [OTHELLO], content: 'first' });
    expect(listed).not.toHaveProperty('topic');
  });

  it('changes only the topic of a channel message', async () => {
    const id = await channelMessage();
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { topic: '  new plans ' }));
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({ topic: 'new plans', streamId: 3, content: 'first' });
  });

  it('ignores a topic for a direct message', async () => {
    const id = await scheduleId('hamlet@zulip.com', { type: 'direct', to: [OTHELLO], content: 'dm', scheduled_delivery_timestamp: FUTURE });
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { topic: 'ignored' }));
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({ topic: '', streamId: null });
  });

  it.each([
    ['nothing to change', {}, 'Nothing to change'],
    ['a type without `to`', { type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
    ['a channel type without a topic', { type: 'channel', to: 3 }, 'Topic required when updating scheduled message type to channel.'],
    ['a time in the past', { scheduled_delivery_timestamp: 1700000000 }, 'Scheduled delivery time must be in the future.'],
    ['a list for a channel', { type: 'stream', to: [3], topic: 't' }, 'Invalid data type for channel ID'],
    ['an unknown channel', { to: 999 }, "Channel with ID '999' does not exist"],
    ['empty content', { content: ' ' }, 'Message must not be empty'],
  ])('refuses %s and changes nothing', async (_case, params, msg) => {
    const id = await channelMessage();
    const before = await storedOf(HAMLET);
    const queue = await openQueue('hamlet@zulip.com');
    const result = await editScheduled('hamlet@zulip.com', id, params);
    expect(result.body.msg).toBe(msg);
    expect(result.status).toBe(400);
    expect(await storedOf(HAMLET)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ["another user's", 'iago@zulip.com'],
    ['another organization', 'king@lear.org'],
  ])('answers 404 "Scheduled message does not exist" for %s message and keeps it', async (_case, as) => {
    const id = await channelMessage();
    const before = await storedOf(HAMLET);
    expectError(await editScheduled(as, id, { content: 'mine now' }), 'Scheduled message does not exist', 404);
    expect(await storedOf(HAMLET)).toEqual(before);
  });

  it('answers 404 for a reminder and for an unknown id', async () => {
    expectError(await editScheduled('iago@zulip.com', 1, { content: 'x' }), 'Scheduled message does not exist', 404);
    expectError(await editScheduled('iago@zulip.com', 99999, { content: 'x' }), 'Scheduled message does not exist', 404);
  });

  it('edits the seeded send-later message', async () => {
    expectSuccess(await editScheduled('iago@zulip.com', 3, { content: 'edited' }));
    expect(await scheduledStore.getScheduledMessageOfUser(IAGO, 3)).toMatchObject({ content: 'edited', streamId: 1 });
  });
});

describe('DELETE /scheduled_messages/{scheduled_message_id}', () => {
  it('deletes it, drops its schedule and sends scheduled_messages remove to the owner only', async () => {
    const id = await channelMessage();
    const [mine, othello] = [await openQueue('hamlet@zulip.com'), await openQueue('othello@zulip.com')];
    expectSuccess(await deleteScheduled('hamlet@zulip.com', id));
    expect(await mine.drain()).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
    expect(await othello.drain()).toEqual([]);
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toBeUndefined();
    expect(listInProcessSchedules().filter((s) => s.name.endsWith(`-${id}`))).toEqual([]);
  });

  it('deletes it once when five requests delete it at once: one success, four 404s, one event', async () => {
    const id = await channelMessage();
    const queue = await openQueue('hamlet@zulip.com');
    const results = await Promise.all(Array.from({ length: 5 }, () => deleteScheduled('hamlet@zulip.com', id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(await queue.drain()).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
  });

  it('answers 404 on a second delete and sends nothing', async () => {
    const id = await channelMessage();
    expectSuccess(await deleteScheduled('hamlet@zulip.com', id));
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await deleteScheduled('hamlet@zulip.com', id), 'Scheduled message does not exist', 404);
    expect(await queue.drain()).toEqual([]);
  });

  it("answers 404 for another user's message, a reminder, and another organization, keeping them", async () => {
    const id = await channelMessage();
    expectError(await deleteScheduled('iago@zulip.com', id), 'Scheduled message does not exist', 404);
    expectError(await deleteScheduled('king@lear.org', id), 'Scheduled message does not exist', 404);
    expectError(await deleteScheduled('iago@zulip.com', 1), 'Scheduled message does not exist', 404);
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toBeDefined();
    expect(await scheduledStore.getScheduledMessageOfUser(IAGO, 1)).toMatchObject({ kind: 'reminder' });
  });
});
