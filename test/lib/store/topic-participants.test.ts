// @**topic** counts the senders of a topic's newest TOPIC_PARTICIPANTS_WINDOW messages (upstream
// reads every message of the topic): a longer topic costs no more to read, and a sender whose last
// message is older than the window no longer counts.
import { dbMetrics } from '../../../lib/store/client';
import { batchPut } from '../../../lib/store/common';
import { entityKeys } from '../../../lib/store/keys';
import { TOPIC_PARTICIPANTS_WINDOW, listSenderIdsOfTopic } from '../../../lib/store/topics';

const CHANNEL = 424242;
const FIRST_ID = 5_000_000;

/** Message items of one topic (only what the topic index and the participants read need): `senders[i]` sent message i. */
const putTopic = async (topic: string, senders: number[]): Promise<void> => {
  await batchPut(
    'main',
    senders.map((senderId, i) => ({
      ...entityKeys.message(2, FIRST_ID + i),
      ...entityKeys.topicMessage(CHANNEL, topic, FIRST_ID + i),
      id: FIRST_ID + i,
      senderId,
      content: 'x'.repeat(200),
    })),
    { concurrency: 4 },
  );
};

describe('topic participants for @**topic**', () => {
  it('are every sender of a topic no longer than the window', async () => {
    await putTopic('short', [10, 11, 10, 12]);
    expect((await listSenderIdsOfTopic(CHANNEL, 'Short')).sort()).toEqual([10, 11, 12]);
  });

  it('are the senders of the newest messages only, read in one bounded query, in a longer topic', async () => {
    // The first five messages are by senders who never write again.
    const senders = [1, 2, 3, 4, 5, ...Array.from({ length: TOPIC_PARTICIPANTS_WINDOW }, (_, i) => 100 + (i % 20))];
    await putTopic('long', senders);
    dbMetrics.reset();
    const participants = await listSenderIdsOfTopic(CHANNEL, 'long');
    const { requests } = dbMetrics.snapshot();
    expect(participants.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    // 1,000 items of ~300 bytes fit one 1 MB page: a request, and never past the window.
    expect(requests).toBe(1);
  });
});
