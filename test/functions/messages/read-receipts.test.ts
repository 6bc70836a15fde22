// GET /messages/{message_id}/read_receipts: who has read a message. Upstream:
// zerver/tests/test_read_receipts.py. Verona (3) is public, with Cordelia (8), Hamlet (10), Iago
// (11), Othello (12) and Default Bot (16) among its subscribers; "core team" (6) is private with
// protected history (Desdemona 9, Hamlet 10, Iago 11).
import { handler as register } from '../../../functions/events/register';
import { handler as readReceipts } from '../../../functions/messages/read-receipts';
import { handler as reactionsHandler } from '../../../functions/reactions/add';
import { handler as flagsHandler } from '../../../functions/messages/update-flags';
import { handler as settingsHandler } from '../../../functions/settings/update';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { storeMessage } from '../../helpers/stored-messages';
import { withRealm } from '../../helpers/realm';

const get = (as: string, messageId: number) =>
  call(readReceipts, {
    method: 'GET',
    path: `/messages/${messageId}/read_receipts`,
    as,
    pathParameters: { message_id: String(messageId) },
  });
const receipts = async (as: string, messageId: number): Promise<number[]> => expectSuccess(await get(as, messageId)).user_ids;
const markRead = async (as: string, messageId: number) =>
  expectSuccess(
    await call(flagsHandler, { method: 'POST', path: '/messages/flags', as, params: { messages: [messageId], op: 'add', flag: 'read' } }),
  );

describe('GET /messages/{message_id}/read_receipts', () => {
  it('lists the users who marked a channel message read, ascending, never its sender', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3, topic: 'read receipts' });
    expect(await receipts('hamlet@zulip.com', m.id)).toEqual([]);
    await markRead('hamlet@zulip.com', m.id);
    await markRead('cordelia@zulip.com', m.id);
    expect(expectSuccess(await get('hamlet@zulip.com', m.id))).toEqual({ result: 'success', msg: '', user_ids: [8, 10] });
  });

  it('lists the readers of a direct message to its participants', async () => {
    const m = await storeMessage({ sender: 12, to: [10, 8] });
    await markRead('hamlet@zulip.com', m.id);
    expect(await receipts('cordelia@zulip.com', m.id)).toEqual([10]);
  });

  it('includes bots that marked the message read', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3 });
    await markRead('default-bot@zulip.com', m.id);
    expect(await receipts('hamlet@zulip.com', m.id)).toEqual([16]);
  });

  it('includes a user whose row is historical (a reaction to a message they never received)', async () => {
    const m = await storeMessage({ sender: 12, channelId: 2, topic: 'highlands' });
    expectSuccess(
      await call(reactionsHandler, {
        method: 'POST',
        path: `/messages/${m.id}/reactions`,
        as: 'cordelia@zulip.com',
        params: { emoji_name: 'smile' },
        pathParameters: { message_id: String(m.id) },
      }),
    );
    expect(await receipts('cordelia@zulip.com', m.id)).toEqual([8]);
  });

  it('leaves out a user who turned send_read_receipts off', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3 });
    await markRead('hamlet@zulip.com', m.id);
    await markRead('cordelia@zulip.com', m.id);
    expectSuccess(
      await call(settingsHandler, { method: 'PATCH', path: '/settings', as: 'cordelia@zulip.com', params: { send_read_receipts: false } }),
    );
    try {
      expect(await receipts('iago@zulip.com', m.id)).toEqual([10]);
    } finally {
      expectSuccess(
        await call(settingsHandler, { method: 'PATCH', path: '/settings', as: 'cordelia@zulip.com', params: { send_read_receipts: true } }),
      );
    }
    expect(await receipts('iago@zulip.com', m.id)).toEqual([8, 10]);
  });

  it('leaves out deactivated users, and shows them again once reactivated', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3 });
    await markRead('hamlet@zulip.com', m.id);
    await markRead('cordelia@zulip.com', m.id);
    const hamlet = (await usersStore.get(2, 10))!;
    await usersStore.put({ ...hamlet, isActive: false });
    try {
      expect(await receipts('cordelia@zulip.com', m.id)).toEqual([8]);
    } finally {
      await usersStore.put(hamlet);
    }
    expect(await receipts('cordelia@zulip.com', m.id)).toEqual([8, 10]);
  });

  it('counts a message marked unread again as not read', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3 });
    await markRead('hamlet@zulip.com', m.id);
    expectSuccess(
      await call(flagsHandler, {
        method: 'POST',
        path: '/messages/flags',
        as: 'hamlet@zulip.com',
        params: { messages: [m.id], op: 'remove', flag: 'read' },
      }),
    );
    expect(await receipts('hamlet@zulip.com', m.id)).toEqual([]);
  });

  it('refuses when the organization has read receipts off', async () => {
    const m = await storeMessage({ sender: 12, channelId: 3 });
    await markRead('hamlet@zulip.com', m.id);
    await withRealm({ enableReadReceipts: false }, async () => {
      expectError(await get('aaron@zulip.com', m.id), 'Read receipts are disabled in this organization.');
      const state = expectSuccess(
        await call(register, { method: 'POST', path: '/register', as: 'aaron@zulip.com', params: { fetch_event_types: ['realm'] } }),
      );
      expect(state.realm_enable_read_receipts).toBe(false);
    });
    expect(await receipts('aaron@zulip.com', m.id)).toEqual([10]);
  });

  it('answers "Invalid message(s)" for a message of a private channel the caller cannot read, before the organization setting', async () => {
    const m = await storeMessage({ sender: 9, channelId: 6, topic: 'secret' });
    expectError(await get('cordelia@zulip.com', m.id), 'Invalid message(s)');
    await withRealm({ enableReadReceipts: false }, async () => {
      expectError(await get('cordelia@zulip.com', m.id), 'Invalid message(s)');
    });
    expect(await receipts('hamlet@zulip.com', m.id)).toEqual([]);
  });

  it('answers "Invalid message(s)" for a direct message the caller is not in, an unknown id, and another organization\'s message', async () => {
    const dm = await storeMessage({ sender: 12, to: [10] });
    expectError(await get('cordelia@zulip.com', dm.id), 'Invalid message(s)');
    expectError(await get('cordelia@zulip.com', 999_999), 'Invalid message(s)');
    expectError(await get('king@lear.org', 6), 'Invalid message(s)');
  });
});
