// Register's cost follows what the caller has unread, starred or talked in, not the history or
// the organization: adding read messages to the caller's history, or users and channels the
// caller does not see, leaves the DynamoDB work of the message sections unchanged.
import { handler as register } from '../../../functions/events/register';
import type { Message } from '../../../lib/models/message';
import { dbMetrics } from '../../../lib/store/client';
import { batchPut } from '../../../lib/store/common';
import { buildMessageItem, buildUserMessageItem, listNewestUnreadOfUser } from '../../../lib/store/messages';
import { authFor, call, expectSuccess } from '../../helpers/api';

const MESSAGE_SECTIONS = ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'];

const registerCost = async (): Promise<{ requests: number; readUnits: number; body: Record<string, any> }> => {
  // The header is looked up before counting: only the handler's calls are measured.
  const authorization = await authFor('iago@zulip.com');
  dbMetrics.reset();
  const body = expectSuccess(
    await call(register, { method: 'POST', path: '/register', authorization, params: { fetch_event_types: MESSAGE_SECTIONS } }),
  );
  const { requests, readUnits } = dbMetrics.snapshot();
  return { requests, readUnits, body };
};

const readMessages = (firstId: number, count: number): Message[] =>
  Array.from({ length: count }, (_, i) => ({
    id: firstId + i,
    realmId: 2,
    senderId: 10,
    streamId: 3,
    topic: `old topic ${i % 10}`,
    dmUserIds: [],
    content: `An old message ${i}`,
    dateSent: 1700050000 + i,
  }));

describe('POST /register: the cost of the message sections', () => {
  it('does not grow when the caller has many more messages, all read', async () => {
    const before = await registerCost();
    // 400 more messages in Verona, all read by Iago: only max_message_id changes.
    const history = readMessages(100000, 400);
    await batchPut(
      'main',
      history.flatMap((m) => [buildMessageItem(m), buildUserMessageItem(m, 11, ['read'])]),
    );
    const after = await registerCost();
    expect(after.body.unread_msgs).toEqual(before.body.unread_msgs);
    expect(after.body.max_message_id).toBe(100399);
    expect({ requests: after.requests, readUnits: after.readUnits }).toEqual({ requests: before.requests, readUnits: before.readUnits });
  });
});

describe('the unread index read', () => {
  it('returns the newest unread messages up to the bound, saying that older ones were left out', async () => {
    const { messages, truncated } = await listNewestUnreadOfUser(11, 3);
    expect(messages.map((m) => m.messageId)).toEqual([14, 13, 11]);
    expect(truncated).toBe(true);
  });

  it('says nothing was left out when every unread message fits', async () => {
    const { messages, truncated } = await listNewestUnreadOfUser(11, 8);
    expect(messages.map((m) => m.messageId)).toEqual([14, 13, 11, 10, 9, 8, 7, 6]);
    expect(truncated).toBe(false);
  });
});
