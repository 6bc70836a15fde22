// Benchmark of subscribing 1,000 users to a channel in one POST /users/me/subscriptions (an
// administrator naming them as principals) against DynamoDB Local: the DynamoDB requests and
// capacity units of the action (authentication excluded), and the events it writes. It adds 1,000
// generated members to the development organization, then subscribes them to Scotland.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { doSubscribe } from '../lib/actions/channels/subscriptions';
import type { User } from '../lib/models/user';
import { documentClient, tableName } from '../lib/store/client';
import { batchPut } from '../lib/store/common';
import * as realmsStore from '../lib/store/realms';
import * as usersStore from '../lib/store/users';
import { costOf, printTable } from './bench-util';

const REALM = 2;
const SUBSCRIBERS = 1000;
const FIRST_ID = 300000;
const IAGO = 11;

/** Stream events in the events table (a Scan: benchmark bookkeeping, never a request path). */
const countStreamEvents = async (): Promise<number> => {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName('events'),
        Select: 'COUNT',
        FilterExpression: 'begins_with(sk, :e)',
        ExpressionAttributeValues: { ':e': 'E#' },
        ExclusiveStartKey,
      }),
    );
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
};

export const benchSubscriptions = async (): Promise<void> => {
  const users: User[] = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
    id: FIRST_ID + i,
    realmId: REALM,
    email: `benchsub${i}@zulip.com`,
    fullName: `Bench Subscriber ${i}`,
    role: 400,
    isBot: false,
    botType: null,
    botOwnerId: null,
    isActive: true,
    timezone: '',
    dateJoined: 1700000000,
    apiKey: `benchsubkey${String(i).padStart(20, '0')}`,
    presenceEnabled: true,
    enableDraftsSynchronization: true,
  }));
  await batchPut('main', users.map(usersStore.buildUserItem));
  const realm = (await realmsStore.get(REALM))!;
  const iago = (await usersStore.get(REALM, IAGO))!;
  const eventsBefore = await countStreamEvents();
  let response: Record<string, unknown> = {};
  const cost = await costOf(async () => {
    response = await doSubscribe(realm, iago, {
      channels: [{ name: 'Scotland' }],
      principals: users.map((u) => u.id),
      authorizationErrorsFatal: true,
      inviteOnly: false,
      historyPublicToSubscribers: undefined,
      announce: false,
      // As a client sends by default; above the bulk limit no direct messages go out.
      sendNewSubscriptionMessages: true,
    });
  });
  const eventsWritten = (await countStreamEvents()) - eventsBefore;
  const subscribed = Object.keys(response.subscribed as Record<string, unknown>).length;
  const accounts = (await usersStore.listOfRealm(REALM)).length;
  console.log(
    `\n## subscriptions: subscribing ${SUBSCRIBERS} users to a channel (organization of ${accounts.toLocaleString('en-US')} accounts)`,
  );
  printTable([[`POST /users/me/subscriptions, ${SUBSCRIBERS} principals`, cost]]);
  console.log(
    `subscribed: ${subscribed}; stream events written: ${eventsWritten} (subscription add for the new subscribers and peer_add for the other users who may see the subscribers: each one shared event per organization stream shard when its audience outnumbers the shards, else one per user)`,
  );
};
