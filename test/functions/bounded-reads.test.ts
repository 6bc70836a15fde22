// Requests that read what they touch, not the organization (issue 21 item 5): subscribing and
// unsubscribing oneself, editing a message's content with a mention, and sending a topic wildcard
// mention cost the same DynamoDB requests, and the same read units but for the few bytes the new
// members add to the organization's role:members group, after MEMBERS more members join (as the
// seed's extra users: user items, and members of role:members). The code before this change read
// every user for each of the first three (about 16 more read units for these 400).
import { handler as sendHandler } from '../../functions/messages/send';
import { handler as updateHandler } from '../../functions/messages/update';
import { handler as subscribeHandler } from '../../functions/channels/subscribe';
import { handler as unsubscribeHandler } from '../../functions/channels/unsubscribe';
import { dbMetrics } from '../../lib/store/client';
import { batchPut } from '../../lib/store/common';
import * as groupsStore from '../../lib/store/user-groups';
import { buildUserItem } from '../../lib/store/users';
import { generatedMember } from '../../scripts/seed';
import { call, expectSuccess, type ApiResult } from '../helpers/api';

const MEMBERS = 400;
const FIRST_MEMBER = 700000;
const ROLE_MEMBERS_GROUP = 5;

type Reads = { requests: number; readUnits: number };

const readsOf = async (request: () => Promise<ApiResult>): Promise<Reads> => {
  dbMetrics.reset();
  expectSuccess(await request());
  const { requests, readUnits } = dbMetrics.snapshot();
  return { requests, readUnits };
};

const subscribe = () =>
  call(subscribeHandler, {
    method: 'POST',
    path: '/users/me/subscriptions',
    as: 'iago@zulip.com',
    params: { subscriptions: [{ name: 'Scotland' }] },
  });
const unsubscribe = () =>
  call(unsubscribeHandler, {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    as: 'iago@zulip.com',
    params: { subscriptions: ['Scotland'] },
  });
const send = (content: string) =>
  call(sendHandler, {
    method: 'POST',
    path: '/messages',
    as: 'iago@zulip.com',
    params: { type: 'stream', to: 'Denmark', topic: 'bounded', content },
  });
const edit = (messageId: number, content: string) =>
  call(updateHandler, {
    method: 'PATCH',
    path: `/messages/${messageId}`,
    as: 'iago@zulip.com',
    params: { content },
    pathParameters: { message_id: String(messageId) },
  });

/** MEMBERS new members of the development organization, as the seed's extra users. */
const addMembers = async (): Promise<void> => {
  const ids = Array.from({ length: MEMBERS }, (_, i) => FIRST_MEMBER + i);
  await batchPut(
    'main',
    ids.map((id) => buildUserItem(generatedMember(id, `bounded${id}@zulip.com`, `Bounded Member ${id}`))),
    { concurrency: 4 },
  );
  const group = (await groupsStore.getGroup(2, ROLE_MEMBERS_GROUP, { consistent: true }))!;
  await batchPut('main', groupsStore.buildGroupItems({ ...group, members: [...group.members, ...ids] }));
};

/** Each request's reads in the development organization, then with MEMBERS more members. */
const measured: Record<string, { before: Reads; after: Reads }> = {};
let messageId = 0;

const measureAll = async (when: 'before' | 'after'): Promise<void> => {
  const record = (name: string, reads: Reads) => {
    measured[name] = { ...measured[name], [when]: reads };
  };
  record('subscribe', await readsOf(subscribe));
  record('unsubscribe', await readsOf(unsubscribe));
  record('edit', await readsOf(() => edit(messageId, `edited ${when} for @**King Hamlet**`)));
  record('topic wildcard', await readsOf(() => send(`a ${when} ping for @**topic**`)));
};

beforeAll(async () => {
  messageId = expectSuccess(await send('the message to edit')).id;
  // So that each measured request changes the same things both times: Iago starts unsubscribed,
  // and Hamlet's row already has the mention the edits keep.
  await unsubscribe();
  expectSuccess(await edit(messageId, 'first edit for @**King Hamlet**'));
  await measureAll('before');
  await addMembers();
  await measureAll('after');
});

describe('reads that do not grow with the organization', () => {
  it.each(['subscribe', 'unsubscribe', 'edit', 'topic wildcard'])('%s: the same requests and read units with 400 more members', (name) => {
    const { before, after } = measured[name]!;
    expect(after.requests).toBe(before.requests);
    expect(after.readUnits).toBeLessThan(before.readUnits + 1);
  });
});
