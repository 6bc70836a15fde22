// Who is told of a reaction (POST and DELETE /messages/{message_id}/reactions), after upstream's
// event_recipient_ids_for_action_on_messages, against the development data (helpers.ts): former
// subscribers, non-subscribers with a row, guests, deactivated users, protected and shared history.
import { handler as updateFlags } from '../../../functions/messages/update-flags';
import { batchPut } from '../../../lib/store/common';
import * as messagesStore from '../../../lib/store/messages';
import * as usersStore from '../../../lib/store/users';
import { call, expectSuccess } from '../../helpers/api';
import { changeChannel, setSubscribed, whileUnsubscribed } from '../../helpers/channels';
import { drainQueues, openQueuesOf } from '../../helpers/events';
import { CORE_TEAM, DENMARK_SUBSCRIBERS, event, newMessage, nextMessageId, OCTOPUS, react, unreact } from './helpers';

// Upstream's event_recipient_ids_for_action_on_messages: a public channel's message goes to its
// active subscribers and every non-guest with a row of it (the row query does not look at whether
// the user is active); a private channel with shared history to its active subscribers; one with
// protected history to the active subscribers who have a row.
describe('who is told of a reaction', () => {
  /** Runs `body` with the user deactivated (out of every subscriber list, as deactivation leaves them), then reactivates them. */
  const whileDeactivated = async (userId: number, channelId: number, body: () => Promise<void>) => {
    const user = (await usersStore.get(2, userId))!;
    await usersStore.put({ ...user, isActive: false });
    await setSubscribed(2, userId, channelId, true);
    try {
      await body();
    } finally {
      await usersStore.put(user);
      await setSubscribed(2, userId, channelId, true);
    }
  };
  /** Runs `body` with the core team channel's history shared with its subscribers. */
  const withSharedHistory = async (body: () => Promise<void>) => {
    await changeChannel(2, CORE_TEAM, { historyPublicToSubscribers: true });
    try {
      await body();
    } finally {
      await changeChannel(2, CORE_TEAM, { historyPublicToSubscribers: false });
    }
  };

  it('tells a former subscriber of a public channel who received the message', async () => {
    const id = await newMessage();
    await whileUnsubscribed(2, 12, 1, async () => {
      const queues = await openQueuesOf([8, 10, 12]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 10: [e], 12: [e] });
    });
  });

  it('tells a former subscriber of a public channel who received the message when a reaction is removed', async () => {
    const id = await newMessage();
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    await whileUnsubscribed(2, 12, 1, async () => {
      const queues = await openQueuesOf([8, 10, 12]);
      expectSuccess(await unreact('hamlet@zulip.com', id, OCTOPUS));
      const e = event('remove', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 10: [e], 12: [e] });
    });
  });

  it('tells a subscriber of a public channel who did not receive the message', async () => {
    const id = await newMessage(1, [7, 9, 10, 11, 14, 15]);
    const queues = await openQueuesOf([10, 12]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 10: [e], 12: [e] });
  });

  it('tells a non-subscriber who starred the public channel message (a historical row)', async () => {
    const id = await newMessage();
    expectSuccess(
      await call(updateFlags, {
        method: 'POST',
        path: '/messages/flags',
        as: 'cordelia@zulip.com',
        params: { messages: [id], op: 'add', flag: 'starred' },
      }),
    );
    const queues = await openQueuesOf([8, 10, 13]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 8: [e], 10: [e], 13: [] });
  });

  it('does not tell a guest who received the public channel message and is not subscribed', async () => {
    const id = await newMessage(1, [...DENMARK_SUBSCRIBERS, 13]);
    const queues = await openQueuesOf([10, 13]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    expect(await drainQueues(queues)).toEqual({ 10: [event('add', 10, id)], 13: [] });
  });

  it('tells a deactivated user who received the public channel message, as upstream reads the rows whether or not their holder is active', async () => {
    const id = await newMessage();
    const queues = await openQueuesOf([10, 14]);
    await whileDeactivated(14, 1, async () => {
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    });
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 10: [e], 14: [e] });
  });

  it('does not tell a subscriber of a channel with protected history who never received the message', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10]);
    const queues = await openQueuesOf([9, 10, 11]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 9: [e], 10: [e], 11: [] });
  });

  it('does not tell a former subscriber of a channel with protected history, though they received the message', async () => {
    const id = await newMessage(CORE_TEAM, [9, 10, 11]);
    await whileUnsubscribed(2, 9, CORE_TEAM, async () => {
      const queues = await openQueuesOf([9, 10, 11]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
    });
  });

  it('tells only the subscribers with a row of a protected-history message stored before recipients records existed', async () => {
    const id = nextMessageId();
    const message = {
      id,
      realmId: 2,
      senderId: 10,
      streamId: CORE_TEAM,
      topic: 'old',
      content: 'old',
      dateSent: 1_700_000_000,
      dmUserIds: [],
    };
    await batchPut('main', [
      messagesStore.buildMessageItem(message),
      ...[9, 10].map((u) => messagesStore.buildUserMessageItem(message, u, ['read'])),
    ]);
    expect(await messagesStore.getRowHolderRecord(2, id)).toEqual({ sent: undefined, later: [] });
    const queues = await openQueuesOf([9, 10, 11]);
    expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
    const e = event('add', 10, id);
    expect(await drainQueues(queues)).toEqual({ 9: [e], 10: [e], 11: [] });
  });

  it('tells a subscriber of a private channel with shared history who did not receive the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10]);
      const queues = await openQueuesOf([8, 9, 10, 11]);
      expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 8: [], 9: [e], 10: [e], 11: [e] });
    });
  });

  it('does not tell a former subscriber of a private channel with shared history, though they received the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10, 11]);
      await whileUnsubscribed(2, 9, CORE_TEAM, async () => {
        const queues = await openQueuesOf([9, 10, 11]);
        expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
        const e = event('add', 10, id);
        expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
      });
    });
  });

  it('does not tell a deactivated subscriber of a private channel with shared history who received the message', async () => {
    await withSharedHistory(async () => {
      const id = await newMessage(CORE_TEAM, [9, 10, 11]);
      const queues = await openQueuesOf([9, 10, 11]);
      await whileDeactivated(9, CORE_TEAM, async () => {
        expectSuccess(await react('hamlet@zulip.com', id, OCTOPUS));
      });
      const e = event('add', 10, id);
      expect(await drainQueues(queues)).toEqual({ 9: [], 10: [e], 11: [e] });
    });
  });
});
