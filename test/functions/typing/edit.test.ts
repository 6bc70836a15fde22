// POST /messages/{message_id}/typing: typing in an edit of one's own message, as upstream's
// send_message_edit_notification_backend, with the typing_edit_message event and to whom.
import { handler } from '../../../functions/typing/edit';
import { advanceClock } from '../../../lib/clock';
import * as usersStore from '../../../lib/store/users';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { sendMessageId } from '../../helpers/messages';

const typing = (as: string, messageId: number | string, params: Record<string, unknown>) =>
  call(handler, { ...atPath('POST', '/messages/{message_id}/typing', { message_id: messageId }), as, params });
const queues = async (emails: string[]) => Promise.all(emails.map((email) => openQueue(email, { eventTypes: ['typing_edit_message'] })));

describe('POST /messages/{message_id}/typing', () => {
  it("tells a channel's subscribers who receive typing notifications, the sender included, and nobody else", async () => {
    const id = await sendMessageId('hamlet@zulip.com', { type: 'stream', to: 'Denmark', topic: 'edit typing', content: 'first draft' });
    const [hamlet, othello, polonius] = await queues(['hamlet@zulip.com', 'othello@zulip.com', 'polonius@zulip.com']);
    await usersStore.updateSettings(2, 12, { receives_typing_notifications: false });
    try {
      expectSuccess(await typing('hamlet@zulip.com', id, { op: 'start' }));
    } finally {
      await usersStore.updateSettings(2, 12, { receives_typing_notifications: true });
    }
    const event = {
      type: 'typing_edit_message',
      op: 'start',
      sender_id: 10,
      message_id: id,
      recipient: { type: 'channel', channel_id: 1, topic: 'edit typing' },
    };
    expect(await hamlet.drain()).toEqual([event]);
    expect(await othello.drain()).toEqual([]);
    // Polonius is not subscribed to Denmark.
    expect(await polonius.drain()).toEqual([]);
  });

  it("tells a direct message's participants, the sender first", async () => {
    const id = await sendMessageId('hamlet@zulip.com', { type: 'direct', to: JSON.stringify([12, 8]), content: 'a group message' });
    const [hamlet, othello, cordelia, iago] = await queues([
      'hamlet@zulip.com',
      'othello@zulip.com',
      'cordelia@zulip.com',
      'iago@zulip.com',
    ]);
    expectSuccess(await typing('hamlet@zulip.com', id, { op: 'stop' }));
    const event = {
      type: 'typing_edit_message',
      op: 'stop',
      sender_id: 10,
      message_id: id,
      recipient: { type: 'direct', user_ids: [10, 8, 12] },
    };
    expect(await hamlet.drain()).toEqual([event]);
    expect(await othello.drain()).toEqual([event]);
    expect(await cordelia.drain()).toEqual([event]);
    expect(await iago.drain()).toEqual([]);
  });

  it('refuses what upstream refuses, in its order, sending nothing', async () => {
    const id = await sendMessageId('hamlet@zulip.com', { type: 'stream', to: 'Denmark', topic: 'edit typing', content: 'words' });
    const [othello] = await queues(['othello@zulip.com']);
    expectError(await typing('hamlet@zulip.com', id, { op: 'begin' }), 'Invalid op');
    expectError(await typing('hamlet@zulip.com', id, {}), "Missing 'op' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expectError(await typing('hamlet@zulip.com', 999999, { op: 'start' }), 'Invalid message(s)');
    expectError(await typing('othello@zulip.com', id, { op: 'start' }), "You don't have permission to edit this message");
    await usersStore.updateSettings(2, 10, { send_stream_typing_notifications: false });
    try {
      expectError(await typing('hamlet@zulip.com', id, { op: 'start' }), 'User has disabled typing notifications for channel messages');
    } finally {
      await usersStore.updateSettings(2, 10, { send_stream_typing_notifications: true });
    }
    expect(await othello.drain()).toEqual([]);
    // The edit limit (600 s) without an edit's 20 s of grace.
    advanceClock(601 * 1000);
    expectError(await typing('hamlet@zulip.com', id, { op: 'start' }), 'The time limit for editing this message has passed');
  });

  it('refuses direct-message typing to a sender who turned it off', async () => {
    const id = await sendMessageId('hamlet@zulip.com', { type: 'direct', to: JSON.stringify([12]), content: 'one to one' });
    await usersStore.updateSettings(2, 10, { send_private_typing_notifications: false });
    try {
      expectError(await typing('hamlet@zulip.com', id, { op: 'start' }), 'User has disabled typing notifications for direct messages');
    } finally {
      await usersStore.updateSettings(2, 10, { send_private_typing_notifications: true });
    }
  });
});
