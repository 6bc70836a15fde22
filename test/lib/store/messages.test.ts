// The message layout (docs/data-model.md, "Messages: keys, indexes, …"): what the seed and
// writeNewMessage store, read back through the indexes the narrows use. Against DynamoDB Local.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import type { Message } from '../../../lib/models/message';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';
import * as channelsStore from '../../../lib/store/channels';

const get = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }))).Item;

const ids = async (index: string, pkName: string, pk: string): Promise<number[]> =>
  (
    (
      await documentClient().send(
        new QueryCommand({
          TableName: tableName('main'),
          IndexName: index,
          KeyConditionExpression: `${pkName} = :pk`,
          ExpressionAttributeValues: { ':pk': pk },
        }),
      )
    ).Items ?? []
  ).map((item) => Number(item.messageId ?? item.id));

describe('the seeded messages', () => {
  it('stores each message in its own partition with its rendered content', async () => {
    const [message] = await messagesStore.getMessagesByIds(2, [7]);
    expect(message).toMatchObject({ id: 7, realmId: 2, senderId: 12, streamId: 3, topic: 'test', content: '@**Iago** look at this.' });
    expect(message!.renderedContent).toBe('<p><span class="user-mention" data-user-id="11">@Iago</span> look at this.</p>');
    expect(await get({ pk: 'MSG#2#7', sk: 'MSG' })).toBeDefined();
  });

  it("finds a channel's, a topic's and a direct-message conversation's messages in their indexes", async () => {
    expect(await ids('gsi1', 'gsi1pk', entityKeys.messagesOfChannel(3).gsi1pk)).toEqual([6, 7, 14]);
    expect(await ids('gsi2', 'gsi2pk', entityKeys.messagesOfTopic(3, 'TEST').gsi2pk)).toEqual([6, 7]);
    expect(await ids('gsi1', 'gsi1pk', entityKeys.messagesOfDmConversation(2, [11, 10, 12]).gsi1pk)).toEqual([13]);
  });

  it("finds a user's rows per conversation and its mentioned rows", async () => {
    expect(await ids('gsi3', 'gsi3pk', entityKeys.userMessagesOfConversation(11, null).gsi3pk)).toEqual([2, 5, 11, 12, 13]);
    expect(await ids('gsi3', 'gsi3pk', entityKeys.userMessagesOfConversation(11, 3).gsi3pk)).toEqual([6, 7, 14]);
    expect(await ids('gsi4', 'gsi4pk', entityKeys.mentionedOfUser(11).gsi4pk)).toEqual([7, 8, 10]);
  });

  it('keeps a summary of each topic with its newest message id', async () => {
    expect(await topicsStore.listTopicsOfChannel(3)).toEqual([
      { channelId: 3, topic: '', maxMessageId: 14 },
      { channelId: 3, topic: 'test', maxMessageId: 7 },
    ]);
  });

  it("answers a user's rows by id, leaving out messages the user did not receive", async () => {
    const rows = await messagesStore.getUserMessagesByIds(11, [7, 4, 15]);
    expect(rows.map((r) => [r.messageId, r.flags])).toEqual([[7, ['mentioned']]]);
  });
});

describe('writeNewMessage', () => {
  const message = (id: number, over: Partial<Message> = {}): Message => ({
    id,
    realmId: 2,
    senderId: 11,
    streamId: 3,
    topic: 'Layout',
    dmUserIds: [],
    content: 'hello',
    dateSent: 1_900_000_000,
    renderedContent: '<p>hello</p>',
    ...over,
  });

  it('allocates rising ids per organization, past every seeded id', async () => {
    const first = await messagesStore.allocateMessageId(2);
    expect(first).toBeGreaterThan(15);
    expect(await messagesStore.allocateMessageId(2)).toBe(first + 1);
  });

  it('writes the message, a row per recipient in the indexes its flags say, and raises the topic summary', async () => {
    const id = await messagesStore.allocateMessageId(2);
    const channel = (await channelsStore.getChannel(2, 3))!;
    const recipients = [
      { userId: 11, flags: ['read'] },
      { userId: 8, flags: ['mentioned'] },
      ...Array.from({ length: 60 }, (_, i) => ({ userId: 5000 + i, flags: [] })),
    ];
    await messagesStore.writeNewMessage(message(id), recipients, channel);
    expect((await messagesStore.getMessagesByIds(2, [id]))[0]).toMatchObject({ id, topic: 'Layout' });
    const rows = await messagesStore.getUserMessagesByIds(5059, [id]);
    expect(rows).toHaveLength(1);
    expect(await get(entityKeys.userMessage(8, id))).toMatchObject({ gsi1pk: 'UNREAD#8', gsi4pk: 'MENTIONED#8', gsi3pk: 'UMCONV#8#C3' });
    expect(await get(entityKeys.userMessage(11, id))).not.toHaveProperty('gsi1pk');
    expect((await topicsStore.listTopicsOfChannel(3))[0]).toEqual({ channelId: 3, topic: 'Layout', maxMessageId: id });
    expect((await channelsStore.getChannel(2, 3))!.lastMessageAt).toBe(1_900_000_000);
  });

  it('refuses to write over an existing message', async () => {
    await expect(messagesStore.writeNewMessage(message(7), [])).rejects.toThrow();
    expect((await messagesStore.getMessagesByIds(2, [7]))[0]!.content).toBe('@**Iago** look at this.');
  });

  it("raises each participant's direct-message conversation to the new id", async () => {
    const id = await messagesStore.allocateMessageId(2);
    await messagesStore.writeNewMessage(message(id, { streamId: null, topic: '', dmUserIds: [10, 11] }), [
      { userId: 10, flags: [] },
      { userId: 11, flags: ['read'] },
    ]);
    const conversations = await messagesStore.listDmConversationsOfUser(10);
    expect(conversations).toContainEqual({ userIds: [11], maxMessageId: id });
  });
});
