import { listInProcessSchedules } from '../../../lib/store/schedules';
import { advanceClock, nowSeconds } from '../../../lib/clock';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { FUTURE, listScheduled, schedule, scheduleId, storedOf, warmUp } from './helpers';

const [HAMLET, IAGO, OTHELLO, CORDELIA] = [10, 11, 12, 8];

warmUp();

describe('POST /scheduled_messages', () => {
  it('schedules a channel message, answers its id, and sends scheduled_messages add to the sender only', async () => {
    const [mine, othello] = [await openQueue('hamlet@zulip.com'), await openQueue('othello@zulip.com')];
    const body = expectSuccess(
      await schedule('hamlet@zulip.com', {
        type: 'channel',
        to: 3,
        topic: ' plans ',
        content: 'See you **soon**  \n',
        scheduled_delivery_timestamp: FUTURE,
      }),
    );
    const id = body.scheduled_message_id;
    const expected = {
      scheduled_message_id: id,
      to: 3,
      type: 'stream',
      topic: 'plans',
      content: 'See you **soon**',
      rendered_content: '<p>See you <strong>soon</strong></p>',
      scheduled_delivery_timestamp: FUTURE,
      failed: false,
    };
    expect(await mine.drain()).toEqual([{ type: 'scheduled_messages', op: 'add', scheduled_messages: [expected] }]);
    expect(await othello.drain()).toEqual([]);
    expect(await listScheduled('hamlet@zulip.com')).toEqual([expected]);
    expect(listInProcessSchedules()).toEqual([
      { name: `scheduled-2-${HAMLET}-${id}`, atSeconds: FUTURE, job: 'scheduledDelivery', payload: { realmId: 2, userId: HAMLET, id } },
    ]);
  });

  it('schedules a direct message with `to` as the other recipients, the sender left out', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'direct',
      to: [OTHELLO, CORDELIA, OTHELLO],
      content: 'hi',
      scheduled_delivery_timestamp: FUTURE,
    });
    const listed = (await listScheduled('hamlet@zulip.com')).find((m) => m.scheduled_message_id === id);
    expect(listed).toEqual(expect.objectContaining({ type: 'private', to: [CORDELIA, OTHELLO], content: 'hi' }));
    expect(listed).not.toHaveProperty('topic');
  });

  it('schedules a direct message to oneself with `to` naming the sender', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'private',
      to: [HAMLET],
      content: 'note to self',
      scheduled_delivery_timestamp: FUTURE,
    });
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({ to: [HAMLET], streamId: null, readBySender: false });
  });

  it.each([
    [
      'a time in the past',
      { type: 'stream', to: 3, topic: 't', content: 'x', scheduled_delivery_timestamp: 1700000000 },
      'Scheduled delivery time must be in the future.',
    ],
    [
      'a time in the past before a bad channel',
      { type: 'stream', to: 999, topic: 't', content: 'x', scheduled_delivery_timestamp: 1 },
      'Scheduled delivery time must be in the future.',
    ],
    [
      'a list for a channel',
      { type: 'stream', to: [3], topic: 't', content: 'x', scheduled_delivery_timestamp: FUTURE },
      'Invalid data type for channel ID',
    ],
    [
      'one id for a direct message',
      { type: 'direct', to: OTHELLO, content: 'x', scheduled_delivery_timestamp: FUTURE },
      'Invalid data type for recipients',
    ],
    ['an unknown type', { type: 'email', to: 3, content: 'x', scheduled_delivery_timestamp: FUTURE }, 'Invalid type'],
    ['no recipients', { type: 'direct', to: [], content: 'x', scheduled_delivery_timestamp: FUTURE }, 'Message must have recipients'],
    ['an unknown user', { type: 'direct', to: [9999], content: 'x', scheduled_delivery_timestamp: FUTURE }, 'Invalid user ID 9999'],
    ['no topic for a channel', { type: 'stream', to: 3, content: 'x', scheduled_delivery_timestamp: FUTURE }, 'Missing topic'],
    [
      'empty content',
      { type: 'stream', to: 3, topic: 't', content: '  ', scheduled_delivery_timestamp: FUTURE },
      'Message must not be empty',
    ],
    [
      'a timestamp that is not an integer',
      { type: 'stream', to: 3, topic: 't', content: 'x', scheduled_delivery_timestamp: '"soon"' },
      'scheduled_delivery_timestamp is not an integer',
    ],
  ])('refuses %s with its message and stores nothing', async (_case, params, msg) => {
    const before = await storedOf(HAMLET);
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await schedule('hamlet@zulip.com', params), msg);
    expect(await storedOf(HAMLET)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
    expect(listInProcessSchedules()).toEqual([]);
  });

  it('refuses a channel that does not exist with upstream STREAM_DOES_NOT_EXIST', async () => {
    const before = await storedOf(HAMLET);
    expectError(
      await schedule('hamlet@zulip.com', { type: 'stream', to: 999, topic: 't', content: 'x', scheduled_delivery_timestamp: FUTURE }),
      "Channel with ID '999' does not exist",
      400,
      'STREAM_DOES_NOT_EXIST',
    );
    expect(await storedOf(HAMLET)).toEqual(before);
  });

  it('refuses a private channel the sender is not subscribed to, as a send does', async () => {
    const before = await storedOf(CORDELIA);
    const result = await schedule('cordelia@zulip.com', {
      type: 'stream',
      to: 6,
      topic: 't',
      content: 'x',
      scheduled_delivery_timestamp: FUTURE,
    });
    expect(result.status).toBe(400);
    expect(await storedOf(CORDELIA)).toEqual(before);
  });

  it('truncates content over max_message_length as a send does', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'stream',
      to: 3,
      topic: 't',
      content: 'x'.repeat(10_050),
      scheduled_delivery_timestamp: FUTURE,
    });
    const stored = await scheduledStore.getScheduledMessageOfUser(HAMLET, id);
    expect(stored!.content.length).toBe(10_000);
    expect(stored!.content.endsWith('\n[message truncated]')).toBe(true);
  });

  it('refuses a time that has just passed on the service clock', async () => {
    advanceClock(30_000);
    expectError(
      await schedule('iago@zulip.com', { type: 'stream', to: 3, topic: 't', content: 'x', scheduled_delivery_timestamp: nowSeconds() }),
      'Scheduled delivery time must be in the future.',
    );
    expect((await storedOf(IAGO)).length).toBe(3 - 1);
  });
});
