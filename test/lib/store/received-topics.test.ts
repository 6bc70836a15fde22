// The received-topic summaries of channels with protected history (docs/data-model.md, topic
// summary): what the seed and writeNewMessage keep for each recipient, against DynamoDB Local.
// core team (6) has protected history (subscribers 9, 10, 11; seeded message 3 in "secret plans");
// Verona (3) is public.
import type { Message } from '../../../lib/models/message';
import * as channelsStore from '../../../lib/store/channels';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';

const message = (id: number, streamId: number, topic: string): Message => ({
  id,
  realmId: 2,
  senderId: 10,
  streamId,
  topic,
  dmUserIds: [],
  content: 'hello',
  dateSent: 1_900_000_000,
});

describe('received-topic summaries', () => {
  it('are seeded for each receiver of a protected-history channel message', async () => {
    for (const userId of [9, 10, 11]) {
      expect(await topicsStore.listReceivedTopicsOfChannel(userId, 6)).toEqual([{ channelId: 6, topic: 'secret plans', maxMessageId: 3 }]);
    }
    expect(await topicsStore.listReceivedTopicsOfChannel(12, 6)).toEqual([]);
  });

  it("are raised for each recipient of a send with protected history, to the topic's newest spelling", async () => {
    const channel = (await channelsStore.getChannel(2, 6))!;
    const id = await messagesStore.allocateMessageId(2);
    await messagesStore.writeNewMessage(
      message(id, 6, 'Secret Plans'),
      [
        { userId: 10, flags: ['read'] },
        { userId: 9, flags: [] },
      ],
      channel,
    );
    const raised = { channelId: 6, topic: 'Secret Plans', maxMessageId: id };
    expect(await topicsStore.listReceivedTopicsOfChannel(10, 6)).toEqual([raised]);
    expect(await topicsStore.listReceivedTopicsOfChannel(9, 6)).toEqual([raised]);
    expect(await topicsStore.listReceivedTopicsOfChannel(11, 6)).toEqual([{ channelId: 6, topic: 'secret plans', maxMessageId: 3 }]);
  });

  it('keep the newest id when an older send lands last', async () => {
    const channel = (await channelsStore.getChannel(2, 6))!;
    const newer = await messagesStore.allocateMessageId(2);
    await messagesStore.writeNewMessage(message(newer, 6, 'race'), [{ userId: 11, flags: [] }], channel);
    await messagesStore.writeNewMessage(message(newer - 100, 6, 'RACE'), [{ userId: 11, flags: [] }], channel);
    expect((await topicsStore.listReceivedTopicsOfChannel(11, 6))[0]).toEqual({ channelId: 6, topic: 'race', maxMessageId: newer });
  });

  it('are not written for a channel whose history is shared', async () => {
    const channel = (await channelsStore.getChannel(2, 3))!;
    const id = await messagesStore.allocateMessageId(2);
    await messagesStore.writeNewMessage(message(id, 3, 'public'), [{ userId: 10, flags: ['read'] }], channel);
    expect(await topicsStore.listReceivedTopicsOfChannel(10, 3)).toEqual([]);
  });
});
