import { handler as listMessages } from '../../../functions/messages/list';
import { handler as createReminder } from '../../../functions/reminders/create';
import { checkArchiveChannel } from '../../../lib/actions/channels/archive';
import { doDeactivateUser } from '../../../lib/actions/people/deactivation';
import { doDeliverScheduledMessage } from '../../../lib/actions/scheduled-delivery';
import { advanceClock, freezeClock, nowSeconds } from '../../../lib/clock';
import { settleJobs } from '../../../lib/store/jobs';
import * as messagesStore from '../../../lib/store/messages';
import * as realmsStore from '../../../lib/store/realms';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { clearInProcessSchedules, fireDueSchedules, listInProcessSchedules } from '../../../lib/store/schedules';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { aroundDynamoCalls } from '../../helpers/dynamo-calls';
import { openQueue } from '../../helpers/events';
import { editScheduled, listScheduled, scheduleId, warmUp } from './helpers';

const REALM = 2;
const [CORDELIA, HAMLET, IAGO, OTHELLO] = [8, 10, 11, 12];
const START_MS = Date.UTC(2030, 0, 1, 12, 0, 0);

/** The newest messages `as` can see in a narrow. */
const newest = async (as: string, narrow: unknown[], count = 5): Promise<Record<string, any>[]> =>
  expectSuccess(
    await call(listMessages, {
      method: 'GET',
      path: '/messages',
      as,
      params: { anchor: 'newest', num_before: count, num_after: 0, narrow },
    }),
  ).messages;

/** Moves the service clock by `seconds` and runs what became due, as the schedules' timers would. */
const passTime = async (seconds: number): Promise<void> => {
  advanceClock(seconds * 1000);
  await fireDueSchedules();
  await settleJobs();
};

const key = (id: number, userId = HAMLET) => ({ realmId: REALM, userId, id });

warmUp();
beforeEach(() => freezeClock(START_MS));

describe('delivery of a scheduled message at its time', () => {
  it('sends the channel message at its time, removes it from the list and tells the sender', async () => {
    const at = nowSeconds() + 120;
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'stream',
      to: 3,
      topic: 'later',
      content: 'Delivered **on time**',
      scheduled_delivery_timestamp: at,
    });
    const [mine, othello] = [await openQueue('hamlet@zulip.com'), await openQueue('othello@zulip.com')];
    await passTime(60);
    expect(
      await newest('othello@zulip.com', [
        { operator: 'channel', operand: 3 },
        { operator: 'topic', operand: 'later' },
      ]),
    ).toEqual([]);
    await passTime(60);
    const [message] = await newest('othello@zulip.com', [
      { operator: 'channel', operand: 3 },
      { operator: 'topic', operand: 'later' },
    ]);
    expect(message).toMatchObject({
      sender_id: HAMLET,
      content: '<p>Delivered <strong>on time</strong></p>',
      subject: 'later',
      timestamp: at,
    });
    const mineEvents = await mine.drain();
    expect(mineEvents.filter((e) => e.type === 'scheduled_messages')).toEqual([
      { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id },
    ]);
    expect(mineEvents.filter((e) => e.type === 'message').map((e) => e.message.id)).toEqual([message.id]);
    expect((await othello.drain()).filter((e) => e.type === 'scheduled_messages')).toEqual([]);
    expect((await listScheduled('hamlet@zulip.com')).map((m) => m.scheduled_message_id)).not.toContain(id);
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({ delivered: true, deliveryMessageId: message.id });
    expect(listInProcessSchedules()).toEqual([]);
  });

  it('sends a direct message to its recipients', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'direct',
      to: [OTHELLO],
      content: 'psst',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    await passTime(5);
    const [message] = await newest('othello@zulip.com', [{ operator: 'dm', operand: [HAMLET] }], 1);
    expect(message).toMatchObject({ sender_id: HAMLET, content: '<p>psst</p>' });
    expect((await scheduledStore.getScheduledMessageOfUser(HAMLET, id))!.deliveryMessageId).toBe(message.id);
  });

  it('sends the message once when the job runs again (a retry), and not at all before its time', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'stream',
      to: 3,
      topic: 'once',
      content: 'only once',
      scheduled_delivery_timestamp: nowSeconds() + 30,
    });
    await doDeliverScheduledMessage(key(id));
    // Early: nothing sent, and its schedule is still there for its time.
    expect(listInProcessSchedules().filter((sch) => sch.name === `scheduled-2-${HAMLET}-${id}`)).toHaveLength(1);
    expect(await newest('hamlet@zulip.com', [{ operator: 'topic', operand: 'once' }])).toEqual([]);
    await passTime(30);
    await doDeliverScheduledMessage(key(id));
    await doDeliverScheduledMessage(key(id));
    await settleJobs();
    expect((await newest('hamlet@zulip.com', [{ operator: 'topic', operand: 'once' }])).map((m) => m.content)).toEqual([
      '<p>only once</p>',
    ]);
  });

  it('a retry after a run that claimed the delivery and stopped before writing sends the claimed message, once', async () => {
    const at = nowSeconds() + 10;
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'stream',
      to: 3,
      topic: 'claimed',
      content: 'after a crash',
      scheduled_delivery_timestamp: at,
    });
    clearInProcessSchedules();
    advanceClock(10_000);
    const claimed = await messagesStore.allocateMessageId(REALM);
    const stored = (await scheduledStore.getScheduledMessageOfUser(HAMLET, id))!;
    expect(await scheduledStore.claimDelivery(stored, at, claimed)).toBe(true);
    await doDeliverScheduledMessage(key(id));
    await doDeliverScheduledMessage(key(id));
    await settleJobs();
    expect((await newest('hamlet@zulip.com', [{ operator: 'topic', operand: 'claimed' }])).map((m) => m.id)).toEqual([claimed]);
  });

  it('a retry after a run that wrote the message and failed to mark it marks it delivered, even if it could no longer be sent', async () => {
    const at = nowSeconds() + 10;
    const id = await scheduleId('iago@zulip.com', {
      type: 'stream',
      to: 2,
      topic: 'crash',
      content: 'written once',
      scheduled_delivery_timestamp: at,
    });
    clearInProcessSchedules();
    advanceClock(10_000);
    let failMark = true;
    const restore = aroundDynamoCalls(async (command, send) => {
      if (failMark && (command.input as { UpdateExpression?: string }).UpdateExpression === 'SET delivered = :true') {
        failMark = false;
        throw new Error('the run stopped here');
      }
      return send(command);
    });
    try {
      await expect(doDeliverScheduledMessage(key(id, IAGO))).rejects.toThrow('the run stopped here');
    } finally {
      restore();
    }
    const [realm, iago] = await Promise.all([realmsStore.get(REALM), usersStore.get(REALM, IAGO)]);
    await checkArchiveChannel(realm!, iago!, 2);
    await doDeliverScheduledMessage(key(id, IAGO));
    await settleJobs();
    const stored = (await scheduledStore.getScheduledMessageOfUser(IAGO, id))!;
    expect(stored).toMatchObject({ delivered: true, failed: false });
    expect((await messagesStore.getMessage(REALM, stored.deliveryMessageId!))!.content).toBe('written once');
  });

  it('an edit of the time moves the delivery: the old time sends nothing', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'stream',
      to: 3,
      topic: 'moved',
      content: 'moved',
      scheduled_delivery_timestamp: nowSeconds() + 10,
    });
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { scheduled_delivery_timestamp: nowSeconds() + 100 }));
    await passTime(10);
    await doDeliverScheduledMessage(key(id));
    expect(await newest('hamlet@zulip.com', [{ operator: 'topic', operand: 'moved' }])).toEqual([]);
    await passTime(90);
    expect(await newest('hamlet@zulip.com', [{ operator: 'topic', operand: 'moved' }])).toHaveLength(1);
  });

  it('an edit after delivery is refused with "Scheduled message was already sent"', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'direct',
      to: [OTHELLO],
      content: 'sent',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    await passTime(5);
    const before = await scheduledStore.getScheduledMessageOfUser(HAMLET, id);
    expectError(await editScheduled('hamlet@zulip.com', id, { content: 'too late' }), 'Scheduled message was already sent');
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toEqual(before);
  });
});

describe('a scheduled message that can no longer be sent', () => {
  it('is marked failed when its channel was archived, and Notification Bot tells the sender why', async () => {
    const at = nowSeconds() + 60;
    const id = await scheduleId('iago@zulip.com', {
      type: 'stream',
      to: 4,
      topic: 'gone',
      content: 'into the void',
      scheduled_delivery_timestamp: at,
    });
    const [realm, iago] = await Promise.all([realmsStore.get(REALM), usersStore.get(REALM, IAGO)]);
    await checkArchiveChannel(realm!, iago!, 4);
    const queue = await openQueue('iago@zulip.com');
    await passTime(60);
    const events = await queue.drain();
    const update = events.find((e) => e.type === 'scheduled_messages');
    expect(update).toEqual({
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: expect.objectContaining({ scheduled_message_id: id, failed: true }),
    });
    const listed = (await listScheduled('iago@zulip.com')).find((m) => m.scheduled_message_id === id);
    expect(listed).toMatchObject({ failed: true, content: 'into the void' });
    const stored = (await scheduledStore.getScheduledMessageOfUser(IAGO, id))!;
    expect(stored.failureMessage).toBe("Not authorized to send to channel 'Venice'");
    const [notice] = await newest('iago@zulip.com', [{ operator: 'is', operand: 'dm' }], 1);
    expect(notice.sender_full_name).toBe('Notification Bot');
    expect(notice.content).toMatch(
      /^<p>The message you scheduled for <time datetime="2030-01-01T12:01:00Z">.*<\/time> was not sent because of the following error:<\/p>/,
    );
    expect(notice.content).toContain(`<blockquote>\n<p>${stored.failureMessage}</p>\n</blockquote>`);
    expect(notice.content).toContain('<a href="#scheduled">View scheduled messages</a>');
  });

  it("is marked failed more than 10 minutes late, with upstream's reason", async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'direct',
      to: [CORDELIA],
      content: 'stale',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    clearInProcessSchedules();
    advanceClock((5 + 601) * 1000);
    await doDeliverScheduledMessage(key(id));
    await settleJobs();
    expect(await scheduledStore.getScheduledMessageOfUser(HAMLET, id)).toMatchObject({
      failed: true,
      failureMessage: 'Message could not be sent at the scheduled time.',
    });
    expect(await newest('cordelia@zulip.com', [{ operator: 'dm', operand: [HAMLET] }], 1)).not.toContainEqual(
      expect.objectContaining({ content: '<p>stale</p>' }),
    );
  });

  it('a failed message is edited only with a new time, which clears `failed` and delivers it', async () => {
    const id = await scheduleId('hamlet@zulip.com', {
      type: 'direct',
      to: [CORDELIA],
      content: 'second chance',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    clearInProcessSchedules();
    advanceClock(700_000);
    await doDeliverScheduledMessage(key(id));
    expectError(await editScheduled('hamlet@zulip.com', id, { content: 'again' }), 'Scheduled delivery time must be in the future.');
    expectSuccess(await editScheduled('hamlet@zulip.com', id, { scheduled_delivery_timestamp: nowSeconds() + 5 }));
    expect((await listScheduled('hamlet@zulip.com')).find((m) => m.scheduled_message_id === id)).toMatchObject({ failed: false });
    await passTime(5);
    const [message] = await newest('cordelia@zulip.com', [{ operator: 'dm', operand: [HAMLET] }], 1);
    expect(message.content).toBe('<p>second chance</p>');
  });

  it('is marked failed without a notice when its sender was deactivated', async () => {
    const id = await scheduleId('othello@zulip.com', {
      type: 'direct',
      to: [CORDELIA],
      content: 'from the past',
      scheduled_delivery_timestamp: nowSeconds() + 5,
    });
    const [realm, othello] = await Promise.all([realmsStore.get(REALM), usersStore.get(REALM, OTHELLO)]);
    await doDeactivateUser(realm!, othello!);
    await passTime(5);
    expect(await scheduledStore.getScheduledMessageOfUser(OTHELLO, id)).toMatchObject({
      failed: true,
      failureMessage: 'Account is deactivated',
    });
    const fromBot = await newest('cordelia@zulip.com', [{ operator: 'dm', operand: [OTHELLO] }], 1);
    expect(fromBot.map((m) => m.content)).not.toContain('<p>from the past</p>');
  });
});

describe('delivery of a reminder at its time', () => {
  it("is Notification Bot's direct message to its owner, with reminders remove", async () => {
    const { reminder_id } = expectSuccess(
      await call(createReminder, {
        method: 'POST',
        path: '/reminders',
        as: 'hamlet@zulip.com',
        params: { message_id: 7, scheduled_delivery_timestamp: nowSeconds() + 30 },
      }),
    );
    const queue = await openQueue('hamlet@zulip.com');
    await passTime(30);
    const events = await queue.drain();
    expect(events.filter((e) => e.type === 'reminders')).toEqual([{ type: 'reminders', op: 'remove', reminder_id }]);
    const message = events.find((e) => e.type === 'message')!.message;
    expect(message.sender_full_name).toBe('Notification Bot');
    expect(message.content).toContain('You requested a reminder for');
    await doDeliverScheduledMessage(key(reminder_id));
    await settleJobs();
    expect(await queue.drain()).toEqual([]);
  });
});
