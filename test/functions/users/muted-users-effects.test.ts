// What a mute changes elsewhere: a muted sender's new messages arrive read for the muter
// (upstream's test_new_messages_from_muted_user_marked_as_read), typing notifications still reach
// the muter (upstream's clients hide them), and read receipts leave out users the caller muted and users who muted the caller
// (upstream's test_read_receipts.py). Denmark (1) has subscribers 7, 9, 10, 11, 12, 14, 15; Verona
// (3) every user of the organization but Former (18) and the Webhook Bot; Cordelia (8) is in
// Verona only. In every test here Hamlet (10) has muted Othello (12).
import { handler as flagsHandler } from '../../../functions/messages/update-flags';
import { handler as readReceipts } from '../../../functions/messages/read-receipts';
import { handler as typingHandler } from '../../../functions/typing/send';
import { handler as muteHandler } from '../../../functions/users/mute';
import { handler as unmuteHandler } from '../../../functions/users/unmute';
import { getUserMessagesByIds } from '../../../lib/store/messages';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { sendMessageId as send } from '../../helpers/messages';

const muteCall = (handler: typeof muteHandler, method: string, as: string, id: number) =>
  call(handler, {
    method,
    path: `/users/me/muted_users/${id}`,
    routeKey: `${method} /users/me/muted_users/{muted_user_id}`,
    pathParameters: { muted_user_id: String(id) },
    as,
  });
const typing = (as: string, params: Record<string, unknown>) => call(typingHandler, { method: 'POST', path: '/typing', as, params });
const markRead = async (as: string, id: number) =>
  expectSuccess(
    await call(flagsHandler, { method: 'POST', path: '/messages/flags', as, params: { messages: [id], op: 'add', flag: 'read' } }),
  );
const receipts = async (as: string, id: number): Promise<number[]> =>
  expectSuccess(
    await call(readReceipts, {
      method: 'GET',
      path: `/messages/${id}/read_receipts`,
      as,
      pathParameters: { message_id: String(id) },
    }),
  ).user_ids;

/** Whether each user's row of the message has the read flag. */
const readBy = async (messageId: number, userIds: number[]): Promise<Record<number, boolean>> =>
  Object.fromEntries(
    await Promise.all(userIds.map(async (id) => [id, (await getUserMessagesByIds(id, [messageId]))[0].flags.includes('read')])),
  );

beforeEach(async () => expectSuccess(await muteCall(muteHandler, 'POST', 'hamlet@zulip.com', 12)));
afterEach(async () => expectSuccess(await muteCall(unmuteHandler, 'DELETE', 'hamlet@zulip.com', 12)));

describe('a new message from a muted sender', () => {
  it('arrives read for the muter, in its event and its row, and unread for everyone else', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    const iago = await openQueue('iago@zulip.com');
    const id = await send('othello@zulip.com', { type: 'stream', to: 1, topic: 'muted', content: 'hello Denmark' });
    expect((await hamlet.drain()).map((e) => [e.type, e.flags])).toEqual([['message', ['read']]]);
    expect((await iago.drain()).map((e) => [e.type, e.flags])).toEqual([['message', []]]);
    expect(await readBy(id, [10, 11, 7])).toEqual({ 10: true, 11: false, 7: false });
  });

  it('arrives read for the muter when the fan-out job writes the rows (past MESSAGE_INLINE_RECIPIENTS)', async () => {
    process.env.MESSAGE_INLINE_RECIPIENTS = '2';
    try {
      const hamlet = await openQueue('hamlet@zulip.com');
      const id = await send('othello@zulip.com', { type: 'stream', to: 1, topic: 'muted', content: 'deferred' });
      expect((await hamlet.drain()).map((e) => [e.type, e.flags])).toEqual([['message', ['read']]]);
      expect(await readBy(id, [10, 11, 7])).toEqual({ 10: true, 11: false, 7: false });
    } finally {
      delete process.env.MESSAGE_INLINE_RECIPIENTS;
    }
  });

  it('arrives read for the muter in a direct message and a group direct message', async () => {
    const direct = await send('othello@zulip.com', { type: 'direct', to: [10], content: 'psst' });
    const group = await send('othello@zulip.com', { type: 'direct', to: [10, 11], content: 'psst, both' });
    expect(await readBy(direct, [10])).toEqual({ 10: true });
    expect(await readBy(group, [10, 11])).toEqual({ 10: true, 11: false });
  });

  it("keeps the muter's mentions but read", async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    await send('othello@zulip.com', { type: 'stream', to: 1, topic: 'muted', content: 'hello @**King Hamlet**' });
    // (The mention also makes Hamlet follow the topic: user_topic events, as for any sender.)
    const messages = (await hamlet.drain()).filter((e) => e.type === 'message');
    expect(messages.map((e) => e.flags)).toEqual([['read', 'mentioned']]);
  });

  it('arrives unread again once the sender is unmuted', async () => {
    expectSuccess(await muteCall(unmuteHandler, 'DELETE', 'hamlet@zulip.com', 12));
    try {
      const id = await send('othello@zulip.com', { type: 'direct', to: [10], content: 'back' });
      expect(await readBy(id, [10])).toEqual({ 10: false });
    } finally {
      expectSuccess(await muteCall(muteHandler, 'POST', 'hamlet@zulip.com', 12));
    }
  });

  it("leaves the muter's own messages to the muted user unread for them", async () => {
    const id = await send('hamlet@zulip.com', { type: 'direct', to: [12], content: 'hi' });
    expect(await readBy(id, [12])).toEqual({ 12: false });
  });
});

describe('typing notifications of a muted user', () => {
  it('still reach the muter, as upstream sends them (its clients hide them)', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    expectSuccess(await typing('othello@zulip.com', { op: 'start', to: [10, 11] }));
    expect((await hamlet.drain()).map((e) => e.type)).toEqual(['typing']);
  });
});

describe('read receipts', () => {
  it('leave out the users the caller muted and the users who muted the caller', async () => {
    const id = await send('iago@zulip.com', { type: 'stream', to: 3, topic: 'receipts', content: 'read me' });
    for (const reader of ['hamlet@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com']) await markRead(reader, id);
    expect(await receipts('cordelia@zulip.com', id)).toEqual([8, 10, 12]);
    expect(await receipts('hamlet@zulip.com', id)).toEqual([8, 10]);
    expect(await receipts('othello@zulip.com', id)).toEqual([8, 12]);
  });
});
