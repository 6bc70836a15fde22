// A channel's topics: their summaries (the topics index of a channel, and the topics of a channel
// with protected history that a user received) and the newest messages of one topic, from the
// items lib/store/messages.ts writes with a send (docs/data-model.md).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TopicSummary } from '../models/message';
import { documentClient, tableName } from './client';
import { queryAll, queryPrefix } from './common';
import { entityKeys, lookupKey } from './keys';
import { MAX_CHANNEL_TOPICS } from './limits';

/** The topics of a channel with their newest message ids, newest first (one partition query). */
export const listTopicsOfChannel = async (channelId: number): Promise<TopicSummary[]> => {
  const k = entityKeys.topicsOfChannel(channelId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_CHANNEL_TOPICS }))
    .map((item) => ({ channelId: Number(item.channelId), topic: String(item.topic), maxMessageId: Number(item.maxMessageId) }))
    .sort((a, b) => b.maxMessageId - a.maxMessageId);
};

/** The topics of a channel with protected history that the user received, with the newest received message ids, newest first (one query of the user's partition). */
export const listReceivedTopicsOfChannel = async (userId: number, channelId: number): Promise<TopicSummary[]> => {
  const k = entityKeys.receivedTopicsOfChannel(userId, channelId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_CHANNEL_TOPICS }))
    .map((item) => ({ channelId: Number(item.channelId), topic: String(item.topic), maxMessageId: Number(item.maxMessageId) }))
    .sort((a, b) => b.maxMessageId - a.maxMessageId);
};

/** A channel's topic summary, or undefined when no message was sent to the topic (case-insensitive). */
export const getTopicSummary = async (channelId: number, topic: string): Promise<TopicSummary | undefined> => {
  const Key = lookupKey(() => entityKeys.topicSummary(channelId, topic));
  if (!Key) return undefined;
  const out = await documentClient().send(new GetCommand({ TableName: tableName('main'), Key }));
  return out.Item
    ? { channelId: Number(out.Item.channelId), topic: String(out.Item.topic), maxMessageId: Number(out.Item.maxMessageId) }
    : undefined;
};

/**
 * How many of a topic's messages, newest first, count toward its participants for @**topic**.
 * Upstream has no such limit: its participants_for_topic (zerver/lib/topic.py, called from
 * zerver/actions/message_send.py get_recipient_info and from check_update_message) reads the
 * senders and reactors of every message of the topic, noting that it "is expensive for large
 * numbers of messages in the topic". Ours reads at most this many (a page of the topic index,
 * sender ids only), so a user whose last message in the topic is older than the newest 1,000 is
 * no longer a participant: the same answer for every topic of up to 1,000 messages.
 */
export const TOPIC_PARTICIPANTS_WINDOW = 1_000;

/** One attribute of a topic's newest TOPIC_PARTICIPANTS_WINDOW messages, newest first (one page of the topic index). */
const newestOfTopic = async (channelId: number, topic: string, attribute: 'id' | 'senderId'): Promise<number[]> => {
  const k = lookupKey(() => entityKeys.messagesOfTopic(channelId, topic));
  if (!k) return [];
  const items = await queryAll(
    {
      TableName: tableName('main'),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': k.gsi2pk },
      ProjectionExpression: attribute,
      ScanIndexForward: false,
    },
    { max: TOPIC_PARTICIPANTS_WINDOW, overflow: 'truncate' },
  );
  return items.map((item) => Number(item[attribute]));
};

/** The ids of a topic's newest TOPIC_PARTICIPANTS_WINDOW messages, newest first. */
export const listNewestMessageIdsOfTopic = (channelId: number, topic: string): Promise<number[]> => newestOfTopic(channelId, topic, 'id');

/** The distinct senders of a topic's newest TOPIC_PARTICIPANTS_WINDOW messages (sender ids only). */
export const listSenderIdsOfTopic = async (channelId: number, topic: string): Promise<number[]> => [
  ...new Set(await newestOfTopic(channelId, topic, 'senderId')),
];
