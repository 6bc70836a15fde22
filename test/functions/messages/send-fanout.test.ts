// POST /messages with the organization's stream in 4 shards (EVENTS_REALM_SHARDS): a message to more
// recipients than shards, and every public channel message, is one shared append to each shard;
// each recipient's queue takes its own version, with its own flags; nobody else's does (but
// all_public_streams queues, for public channels). Denmark (1) has subscribers 7, 9, 10, 11, 12,
// 14, 15; core team (6) is private (9, 10, 11); Cordelia (8) is in neither; Edgar is in 'lear'.
import { eventForQueue } from '../../../lib/events/event-filters';
import { newSubscription } from '../../../lib/models/channel';
import * as channelsStore from '../../../lib/store/channels';
import { batchPut } from '../../../lib/store/common';
import * as streams from '../../../lib/store/event-streams';
import { eventKeys } from '../../../lib/store/keys';
import type { MessageEvent } from '../../../lib/models/event';
import { expectSuccess } from '../../helpers/api';
import { neverFollowNewTopics, openQueue, queueDescriptor } from '../../helpers/events';
import { sendMessage as send } from '../../helpers/messages';

const REALM = 2;
const SHARDS = 4;
const DENMARK_SUBSCRIBERS = [7, 9, 10, 11, 12, 14, 15];
const shardStreams = Array.from({ length: SHARDS }, (_, shard) => eventKeys.realmStream(REALM, shard));

/** How many items each stream gained while `run` ran, by stream. */
const appendsDuring = async (streamNames: string[], run: () => Promise<unknown>): Promise<Record<string, number>> => {
  const before = await streams.getHeads(streamNames, { consistent: true });
  await run();
  const after = await streams.getHeads(streamNames, { consistent: true });
  return Object.fromEntries(streamNames.map((s) => [s, after.get(s)!.seq - before.get(s)!.seq]));
};

const counts = (names: string[], n: number) => Object.fromEntries(names.map((s) => [s, n]));

describe('POST /messages to many recipients', () => {
  beforeAll(async () => {
    process.env.EVENTS_REALM_SHARDS = String(SHARDS);
    await neverFollowNewTopics('hamlet@zulip.com');
  });
  afterAll(() => {
    delete process.env.EVENTS_REALM_SHARDS;
  });

  it("appends a channel message once to each shard of the organization's stream and to no subscriber's stream", async () => {
    const userStreams = DENMARK_SUBSCRIBERS.map(eventKeys.userStream);
    const appended = await appendsDuring([...shardStreams, ...userStreams], () =>
      send('hamlet@zulip.com', { type: 'stream', to: 1, topic: 'castle', content: 'one append' }),
    );
    expect(appended).toEqual({ ...counts(shardStreams, 1), ...counts(userStreams, 0) });
  });

  it("appends a private channel's message to each subscriber's own stream when they are no more than the shards", async () => {
    const userStreams = [9, 10, 11].map(eventKeys.userStream);
    const appended = await appendsDuring([...shardStreams, ...userStreams], () =>
      send('hamlet@zulip.com', { type: 'stream', to: 6, topic: 'plans', content: 'three recipients' }),
    );
    expect(appended).toEqual({ ...counts(shardStreams, 0), ...counts(userStreams, 1) });
  });

  it("gives each subscriber's queue its own flags, and nothing to a non-subscriber's or another organization's queue", async () => {
    const [hamlet, iago, othello, cordelia, edgar] = await Promise.all(
      ['hamlet@zulip.com', 'iago@zulip.com', 'othello@zulip.com', 'cordelia@zulip.com', 'edgar@lear.org'].map((email) => openQueue(email)),
    );
    const body = expectSuccess(
      await send('hamlet@zulip.com', { type: 'stream', to: 1, topic: 'castle', content: 'Hello @**Iago**', read_by_sender: true }),
    );
    // A mentioned subscriber also follows the topic (user_topic events): only the message counts here.
    const flagsOf = async (queue: typeof hamlet) =>
      (await queue.drain()).filter((e) => e.type === 'message').map((e) => [e.message.id, e.flags]);
    expect(await flagsOf(hamlet)).toEqual([[body.id, ['read']]]);
    expect(await flagsOf(iago)).toEqual([[body.id, ['mentioned']]]);
    expect(await flagsOf(othello)).toEqual([[body.id, []]]);
    expect(await cordelia.drain()).toEqual([]);
    expect(await edgar.drain()).toEqual([]);
  });

  it('delivers a public channel message to all_public_streams queues with their own flags, once', async () => {
    const cordelia = await openQueue('cordelia@zulip.com', { params: { all_public_streams: true } });
    const iago = await openQueue('iago@zulip.com', { params: { all_public_streams: true } });
    const othello = await openQueue('othello@zulip.com', { params: { all_public_streams: true } });
    expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 1, topic: 'castle', content: 'for @**Iago**' }));
    expectSuccess(await send('hamlet@zulip.com', { type: 'stream', to: 6, topic: 'plans', content: 'private' }));
    const seen = async (queue: typeof iago) => (await queue.drain()).map((e) => [e.message.content, e.flags]);
    expect(await seen(cordelia)).toEqual([['for @**Iago**', []]]);
    expect(await seen(iago)).toEqual([
      ['for @**Iago**', ['mentioned']],
      ['private', []],
    ]);
    expect(await seen(othello)).toEqual([['for @**Iago**', []]]);
  });

  it('delivers a direct message between two users to their own streams, each with the other as recipient', async () => {
    const [hamlet, iago] = await Promise.all([openQueue('hamlet@zulip.com'), openQueue('iago@zulip.com')]);
    const userStreams = [10, 11].map(eventKeys.userStream);
    const appended = await appendsDuring([...shardStreams, ...userStreams], () =>
      send('hamlet@zulip.com', { type: 'private', to: JSON.stringify([11]), content: 'just us', read_by_sender: true }),
    );
    expect(appended).toEqual({ ...counts(shardStreams, 0), ...counts(userStreams, 1) });
    expect((await hamlet.drain()).map((e) => [e.message.recipient_id, e.flags])).toEqual([[11, ['read']]]);
    expect((await iago.drain()).map((e) => [e.message.recipient_id, e.flags])).toEqual([[10, []]]);
  });

  it('gives each of 3,000 subscribers exactly the flags of its row, from one append per shard', async () => {
    const channelId = 900001;
    const denmark = (await channelsStore.getChannel(REALM, 1))!;
    const generated = Array.from({ length: 2998 }, (_, i) => 600_000 + 7 * i);
    const subscribers = [11, 12, ...generated];
    await batchPut(
      'main',
      [
        channelsStore.buildChannelItem({ ...denmark, id: channelId, name: 'three thousand', subscriberCount: subscribers.length }),
        ...subscribers.map((userId) =>
          channelsStore.buildSubscriptionItem(newSubscription({ userId, channelId, realmId: REALM }, '#76ce90')),
        ),
      ],
      { concurrency: 8 },
    );
    const before = await streams.getHeads(shardStreams, { consistent: true });
    const body = expectSuccess(
      await send('iago@zulip.com', {
        type: 'stream',
        to: channelId,
        topic: 'crowd',
        content: 'hello @**Othello, the Moor of Venice**',
        read_by_sender: true,
      }),
    );
    const after = await streams.getHeads(shardStreams, { consistent: true });
    expect(shardStreams.map((s) => after.get(s)!.seq - before.get(s)!.seq)).toEqual([1, 1, 1, 1]);
    const [stored] = await streams.readAfter(shardStreams[0], before.get(shardStreams[0])!.seq, 10);
    // Iago's seeded alert words include "Othello": the sender's own row gets has_alert_word too, as upstream's.
    const expected = (userId: number) => (userId === 11 ? ['read', 'has_alert_word'] : userId === 12 ? ['mentioned'] : []);
    for (const userId of subscribers) {
      const version = eventForQueue(queueDescriptor({ userId }), stored.event!) as MessageEvent;
      expect([userId, version.message.id, version.flags]).toEqual([userId, body.id, expected(userId)]);
    }
    // A user of the organization who is not subscribed, and an id between two listed ones.
    expect(eventForQueue(queueDescriptor({ userId: 8 }), stored.event!)).toBeNull();
    expect(eventForQueue(queueDescriptor({ userId: 600_001 }), stored.event!)).toBeNull();
  }, 60000);
});
