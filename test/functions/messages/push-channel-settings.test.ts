// Who is notified of a channel message on their phone, by upstream's rules
// (zerver/lib/notification_data.py): the user's enable_stream_push_notifications, overridden by
// the subscription's push_notifications; muted channels and topics; wildcard mentions by the
// channel's wildcard_mentions_notify; and a message already read, a retried job, a deleted message.
import { handler as sendHandler } from '../../../functions/messages/send';
import { handler as deleteMessage } from '../../../functions/messages/delete';
import { handler as updateMessage } from '../../../functions/messages/update';
import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { handler as updateSettings } from '../../../functions/settings/update';
import { handler as subscriptionProperties } from '../../../functions/channels/properties';
import { handler as updateUserTopic } from '../../../functions/topics/update-user-topic';
import * as usersStore from '../../../lib/store/users';
import { holdJobs, releaseJobs, settleJobs } from '../../../lib/store/jobs';
import { call, expectSuccess } from '../../helpers/api';
import {
  bouncerState,
  failBouncerRequests,
  notificationCount,
  notificationsSince,
  registerPhone,
  usePushBouncer,
} from '../../helpers/push';

usePushBouncer();

const REALM = 2;
const HAMLET = 10;
const OTHELLO = 12;
const DENMARK = 1;

let keys: Record<string, string>;

beforeAll(async () => {
  const hamletPhone = await registerPhone('hamlet@zulip.com');
  const othelloPhone = await registerPhone('othello@zulip.com');
  keys = { [hamletPhone.token_id]: hamletPhone.push_key, [othelloPhone.token_id]: othelloPhone.push_key };
});

const setSettings = async (as: string, params: Record<string, unknown>) =>
  expectSuccess(await call(updateSettings, { method: 'PATCH', path: '/settings', as, params }));

const setSubscription = async (as: string, property: string, value: unknown) =>
  expectSuccess(
    await call(subscriptionProperties, {
      method: 'POST',
      path: '/users/me/subscriptions/properties',
      as,
      params: { subscription_data: JSON.stringify([{ stream_id: DENMARK, property, value }]) },
    }),
  );

const setTopicPolicy = async (as: string, topic: string, policy: number) =>
  expectSuccess(
    await call(updateUserTopic, {
      method: 'POST',
      path: '/user_topics',
      as,
      params: { stream_id: DENMARK, topic, visibility_policy: policy },
    }),
  );

const sendToDenmark = async (topic: string, content: string, opts: { settleJobs?: boolean } = {}): Promise<number> =>
  expectSuccess(
    await call(sendHandler, {
      method: 'POST',
      path: '/messages',
      as: 'iago@zulip.com',
      params: { type: 'stream', to: 'Denmark', topic, content },
      ...opts,
    }),
  ).id as number;

/** Who was notified of what since `before`: [user id, message id or removed ids] per push request. */
const pushedSince = async (before: number) =>
  (await notificationsSince(before, keys)).flatMap((n) =>
    n.pushRequests.map((r) => {
      const p = r.decrypted as { type: string; user_id: number; message_id?: number; message_ids?: number[] };
      return p.type === 'remove' ? { removed: p.message_ids, user: p.user_id } : { user: p.user_id, message: p.message_id };
    }),
  );

describe("a channel message's push notifications", () => {
  it("follow the user's enable_stream_push_notifications, kept in the organization's index of users with it", async () => {
    await setSettings('othello@zulip.com', { enable_stream_push_notifications: true });
    expect(await usersStore.listIdsWithStreamPush(REALM)).toEqual([OTHELLO]);
    let before = await notificationCount();
    const id = await sendToDenmark('harbour', 'ships ahoy');
    expect(await pushedSince(before)).toEqual([{ user: OTHELLO, message: id }]);

    await setSettings('othello@zulip.com', { enable_stream_push_notifications: false });
    expect(await usersStore.listIdsWithStreamPush(REALM)).toEqual([]);
    before = await notificationCount();
    await sendToDenmark('harbour', 'more ships');
    expect(await pushedSince(before)).toEqual([]);
  });

  it("follow the subscription's push_notifications over the user's setting, both ways", async () => {
    await setSubscription('hamlet@zulip.com', 'push_notifications', true);
    let before = await notificationCount();
    const id = await sendToDenmark('harbour', 'for Hamlet only');
    expect(await pushedSince(before)).toEqual([{ user: HAMLET, message: id }]);

    await setSettings('othello@zulip.com', { enable_stream_push_notifications: true });
    await setSubscription('othello@zulip.com', 'push_notifications', false);
    await setSubscription('hamlet@zulip.com', 'push_notifications', false);
    before = await notificationCount();
    await sendToDenmark('harbour', 'for nobody');
    expect(await pushedSince(before)).toEqual([]);
  });

  it('are silenced by a muted topic, and by a muted channel unless the topic is unmuted', async () => {
    // Othello's subscription pushes the channel's messages; Hamlet's does not (previous test).
    await setSubscription('othello@zulip.com', 'push_notifications', true);
    await setTopicPolicy('othello@zulip.com', 'noise', 1);
    let before = await notificationCount();
    await sendToDenmark('noise', 'muted topic');
    expect(await pushedSince(before)).toEqual([]);

    await setSubscription('othello@zulip.com', 'is_muted', true);
    await setTopicPolicy('othello@zulip.com', 'signal', 2);
    before = await notificationCount();
    await sendToDenmark('other', 'muted channel');
    const unmuted = await sendToDenmark('signal', 'unmuted topic of a muted channel');
    expect(await pushedSince(before)).toEqual([{ user: OTHELLO, message: unmuted }]);

    // A followed topic notifies by its own setting, even in a muted channel.
    await setTopicPolicy('hamlet@zulip.com', 'signal', 3);
    await setSubscription('hamlet@zulip.com', 'is_muted', true);
    before = await notificationCount();
    const followed = await sendToDenmark('signal', 'followed');
    expect((await pushedSince(before)).sort((a, b) => a.user - b.user)).toEqual([
      { user: HAMLET, message: followed },
      { user: OTHELLO, message: followed },
    ]);
    await setSubscription('othello@zulip.com', 'is_muted', false);
    await setSubscription('hamlet@zulip.com', 'is_muted', false);
    await setSubscription('othello@zulip.com', 'push_notifications', false);
  });

  it("send a wildcard mention as the channel's wildcard_mentions_notify says, and not in a muted topic", async () => {
    await setSubscription('othello@zulip.com', 'wildcard_mentions_notify', false);
    let before = await notificationCount();
    const all = await sendToDenmark('news', '@**all** listen');
    expect((await pushedSince(before)).filter((p) => p.user === OTHELLO)).toEqual([]);
    expect(await pushedSince(before)).toContainEqual({ user: HAMLET, message: all });

    await setSubscription('othello@zulip.com', 'wildcard_mentions_notify', true);
    await setTopicPolicy('hamlet@zulip.com', 'muted news', 1);
    before = await notificationCount();
    const again = await sendToDenmark('muted news', '@**all** again');
    expect(await pushedSince(before)).toEqual([{ user: OTHELLO, message: again }]);

    // A personal mention notifies even in a muted topic.
    before = await notificationCount();
    const personal = await sendToDenmark('muted news', '@**King Hamlet** you');
    expect(await pushedSince(before)).toEqual([{ user: HAMLET, message: personal }]);
  });
});

describe('the push job', () => {
  it('sends nothing of a message the recipient read before the job ran', async () => {
    holdJobs();
    const id = await sendToDenmark('quick', '@**King Hamlet** read fast', { settleJobs: false });
    expectSuccess(
      await call(updateFlags, {
        method: 'POST',
        path: '/messages/flags',
        as: 'hamlet@zulip.com',
        params: { messages: JSON.stringify([id]), op: 'add', flag: 'read' },
        settleJobs: false,
      }),
    );
    const before = await notificationCount();
    releaseJobs();
    await settleJobs();
    expect(await pushedSince(before)).toEqual([]);
  });

  it('notifies each recipient once when a retry follows a partial failure', async () => {
    const before = await notificationCount();
    // Two recipients, one request each: the first request fails, so one of them is notified by the
    // first run and the other by the retry, which must not notify the first again.
    await failBouncerRequests(1);
    const id = await sendToDenmark('pair', '@**King Hamlet** @**Othello, the Moor of Venice** both');
    expect((await pushedSince(before)).sort((a, b) => a.user - b.user)).toEqual([
      { user: HAMLET, message: id },
      { user: OTHELLO, message: id },
    ]);
    const statuses = (await bouncerState()).requests.filter((r) => r.endpoint === 'push/e2ee/notify').map((r) => r.status);
    expect(statuses.slice(-3)).toEqual([503, 200, 200]);
  });

  it("removes a deleted message's notification from the phones of those notified, and only theirs", async () => {
    const id = await sendToDenmark('gone', '@**King Hamlet** soon deleted');
    const before = await notificationCount();
    expectSuccess(
      await call(deleteMessage, {
        method: 'DELETE',
        path: `/messages/${id}`,
        as: 'iago@zulip.com',
        pathParameters: { message_id: String(id) },
      }),
    );
    expect(await pushedSince(before)).toEqual([{ user: HAMLET, removed: [id] }]);
  });

  it('notifies whom an edit newly mentions, once, and nobody for an edit that mentions no one new', async () => {
    const edit = async (id: number, content: string) =>
      expectSuccess(
        await call(updateMessage, {
          method: 'PATCH',
          path: `/messages/${id}`,
          as: 'iago@zulip.com',
          pathParameters: { message_id: String(id) },
          params: { content },
        }),
      );
    const id = await sendToDenmark('edits', 'draft text');
    let before = await notificationCount();
    await edit(id, 'now for @**King Hamlet**');
    expect(await pushedSince(before)).toEqual([{ user: HAMLET, message: id }]);
    before = await notificationCount();
    await edit(id, 'still for @**King Hamlet**, reworded');
    expect(await pushedSince(before)).toEqual([]);
  });
});
