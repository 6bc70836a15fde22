// POST /streams/{stream_id}/delete_topic (upstream's delete_in_topic), against the development
// data: Venice (4) has one message, "canals" (1, Prospero's), its first; Scotland (2) has the
// "highlands" topic (9, 10); subscribers of Scotland are 7, 11, 12, 14, 15. Iago (11) is an
// administrator, Hamlet (10) a member; Old Verona (7) is archived.
import { handler as deleteTopic } from '../../../functions/channels/delete-topic';
import * as channelsStore from '../../../lib/store/channels';
import * as messagesStore from '../../../lib/store/messages';
import * as topicsStore from '../../../lib/store/topics';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storeMessage } from '../../helpers/stored-messages';

const post = (as: string, channelId: number, params: Record<string, unknown>) =>
  call(deleteTopic, {
    method: 'POST',
    path: `/streams/${channelId}/delete_topic`,
    pathParameters: { stream_id: String(channelId) },
    as,
    params,
  });

const topicIds = (channelId: number, topic: string) => topicsStore.listNewestMessageIdsOfTopic(channelId, topic);

describe('POST /streams/{stream_id}/delete_topic', () => {
  it.each([
    ['a member', 'hamlet@zulip.com', 2, { topic_name: 'highlands' }, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'],
    ['an archived channel', 'iago@zulip.com', 7, { topic_name: 'highlands' }, 'Invalid channel ID', 'BAD_REQUEST'],
    ['a channel that does not exist', 'iago@zulip.com', 999, { topic_name: 'highlands' }, 'Invalid channel ID', 'BAD_REQUEST'],
    ['a missing topic_name', 'iago@zulip.com', 2, {}, "Missing 'topic_name' argument", 'REQUEST_VARIABLE_MISSING'],
  ])('refuses %s and deletes nothing', async (_label, as, channelId, params, msg, code) => {
    expectError(await post(as, channelId, params), msg, 400, code);
    expect(await topicIds(2, 'highlands')).toEqual([10, 9]);
  });

  it('deletes every message of the topic, tells who saw them, and the new first message id', async () => {
    const prospero = await openQueue('prospero@zulip.com', { capabilities: { bulk_message_deletion: true } });
    const cordelia = await openQueue('cordelia@zulip.com');
    expect(expectSuccess(await post('iago@zulip.com', 4, { topic_name: 'canals' })).complete).toBe(true);
    expect(await topicIds(4, 'canals')).toEqual([]);
    expect(await messagesStore.getMessage(2, 1)).toBeUndefined();
    expect(await prospero.drain()).toEqual([
      { type: 'delete_message', message_ids: [1], message_type: 'stream', stream_id: 4, topic: 'canals' },
      { type: 'stream', op: 'update', stream_id: 4, name: 'Venice', property: 'first_message_id', value: null },
    ]);
    // Cordelia sees Venice's metadata, but never had the message.
    expect(await cordelia.drain()).toEqual([
      { type: 'stream', op: 'update', stream_id: 4, name: 'Venice', property: 'first_message_id', value: null },
    ]);
    expect((await channelsStore.getChannel(2, 4, { consistent: true }))!.firstMessageId).toBeNull();
  });

  it('answers complete: false when the request reached its bound, and the next request finishes', async () => {
    for (let i = 0; i < 3; i += 1) await storeMessage({ sender: 11, channelId: 2, topic: 'bulk', content: `m${i}` });
    const ids = await topicIds(2, 'bulk');
    const iago = await openQueue('iago@zulip.com', { capabilities: { bulk_message_deletion: true } });
    const shiva = await openQueue('shiva@zulip.com');
    process.env.DELETE_TOPIC_MAX_MESSAGES = '2';
    try {
      expect(expectSuccess(await post('iago@zulip.com', 2, { topic_name: 'BULK' })).complete).toBe(false);
      expect(await topicIds(2, 'bulk')).toEqual([ids[2]]);
      expect(expectSuccess(await post('iago@zulip.com', 2, { topic_name: 'bulk' })).complete).toBe(true);
    } finally {
      delete process.env.DELETE_TOPIC_MAX_MESSAGES;
    }
    expect(await topicIds(2, 'bulk')).toEqual([]);
    expect((await iago.drain()).map((e) => [e.type, e.message_ids])).toEqual([
      ['delete_message', [ids[1], ids[0]]],
      ['delete_message', [ids[2]]],
    ]);
    // A queue without bulk_message_deletion gets one event per message.
    expect((await shiva.drain()).map((e) => [e.type, e.message_id])).toEqual([
      ['delete_message', ids[1]],
      ['delete_message', ids[0]],
      ['delete_message', ids[2]],
    ]);
    expect(await topicIds(2, 'highlands')).toEqual([10, 9]);
  });
});
