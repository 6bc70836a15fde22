// POST /reminders reads the message with the one channel-access module (lib/access/channels.ts,
// upstream's has_message_access) and quotes it with the one message-content module.
import { handler as create } from '../../../functions/reminders/create';
import { MAX_MESSAGE_LENGTH } from '../../../lib/models/message-content';
import * as scheduledStore from '../../../lib/store/scheduled-messages';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { putChannelMessage, setSubscribed } from '../../helpers/channels';

const FUTURE = 4102444800;
const post = (as: string, messageId: number) =>
  call(create, { method: 'POST', path: '/reminders', as, params: { message_id: messageId, scheduled_delivery_timestamp: FUTURE } });
const reminderOf = (userId: number, id: number) => scheduledStore.getScheduledMessageOfUser(userId, id);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('POST /reminders: which messages a user may be reminded of', () => {
  it('accepts a message in an archived channel, which upstream still lets its readers access', async () => {
    await putChannelMessage(
      { id: 900, realmId: 2, senderId: 11, streamId: 7, topic: 'old times', content: 'Archived words.', dateSent: 1700010000 },
      [11],
    );
    const { reminder_id } = expectSuccess(await post('hamlet@zulip.com', 900));
    expect((await reminderOf(10, reminder_id))?.reminderTargetMessageId).toBe(900);
  });

  it('accepts a web-public channel message for a guest who is not subscribed', async () => {
    const { reminder_id } = expectSuccess(await post('polonius@zulip.com', 4));
    expect((await reminderOf(13, reminder_id))?.reminderTargetMessageId).toBe(4);
  });

  it('refuses a message of a protected-history channel the user received but has since left', async () => {
    await setSubscribed(2, 10, 6, false);
    const before = await scheduledStore.listScheduledMessagesOfUser(10);
    expectError(await post('hamlet@zulip.com', 3), 'Invalid message(s)');
    expect(await scheduledStore.listScheduledMessagesOfUser(10)).toEqual(before);
  });
});

describe('POST /reminders: quoting a long message', () => {
  it('cuts the quote at MAX_MESSAGE_LENGTH characters without splitting an emoji in half', async () => {
    await putChannelMessage(
      { id: 901, realmId: 2, senderId: 11, streamId: 3, topic: 't', content: '😀'.repeat(MAX_MESSAGE_LENGTH), dateSent: 1700010000 },
      [11],
    );
    const { reminder_id } = expectSuccess(await post('hamlet@zulip.com', 901));
    const content = (await reminderOf(10, reminder_id))!.content;
    expect([...content]).toHaveLength(MAX_MESSAGE_LENGTH);
    expect(LONE_SURROGATE.test(content)).toBe(false);
    expect(content).toMatch(/```quote\n(😀)+\n\[message truncated\]\n```$/u);
  });
});
