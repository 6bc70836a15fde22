// DELETE /streams/{stream_id} (upstream's do_deactivate_stream) and GET
// /streams/{stream_id}/email_address, against the development data: Denmark (1) is public,
// subscribers 7, 9, 10, 11, 12, 14, 15; Scotland (2) public, subscribers 7, 11, 12, 14, 15;
// core team (6) private (9, 10, 11); Old Verona (7) archived. Hamlet (10) and Cordelia (8) are
// members, Polonius (13) a guest on Verona only, the default bot (16) is Desdemona's (9). Verona
// (3) is the new-channel announcements channel; Venice (4) is public.
import { handler as archive } from '../../../functions/channels/archive';
import { handler as emailAddress } from '../../../functions/channels/email-address';
import { handler as getMessages } from '../../../functions/messages/list';
import * as channelsStore from '../../../lib/store/channels';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel } from '../../helpers/channels';
import { openQueue } from '../../helpers/events';

const del = (as: string, channelId: number) =>
  call(archive, { method: 'DELETE', path: `/streams/${channelId}`, pathParameters: { stream_id: String(channelId) }, as });

const stored = async (channelId: number) => (await channelsStore.getChannel(2, channelId, { consistent: true }))!;

describe('DELETE /streams/{stream_id}', () => {
  it.each([
    ['a member who does not administer it', 'hamlet@zulip.com', 2, 'You do not have permission to administer this channel.'],
    ['a guest who cannot see it', 'polonius@zulip.com', 2, 'Invalid channel ID'],
    ['a private channel the member is not on', 'cordelia@zulip.com', 6, 'Invalid channel ID'],
    ['a channel that does not exist', 'iago@zulip.com', 999, 'Invalid channel ID'],
    ['an archived channel', 'iago@zulip.com', 7, 'Channel is already deactivated'],
  ])('refuses %s and changes nothing', async (_label, as, channelId, msg) => {
    const before = await channelsStore.getChannel(2, channelId, { consistent: true });
    expectError(await del(as, channelId), msg);
    expect(await channelsStore.getChannel(2, channelId, { consistent: true })).toEqual(before);
  });

  it('archives: subscriptions and messages stay, archived_channels clients get is_archived, others a delete', async () => {
    const modern = await openQueue('hamlet@zulip.com', { capabilities: { archived_channels: true }, params: { apply_markdown: false } });
    const legacy = await openQueue('cordelia@zulip.com');
    expectSuccess(await del('iago@zulip.com', 1));
    expect((await stored(1)).isArchived).toBe(true);
    expect(await channelsStore.listSubscriberIdsOfChannel(1)).toEqual([7, 9, 10, 11, 12, 14, 15]);

    const modernEvents = await modern.drain();
    expect(modernEvents.filter((e) => e.type === 'stream')).toEqual([
      { type: 'stream', op: 'update', stream_id: 1, name: 'Denmark', property: 'is_archived', value: true },
    ]);
    const notice = modernEvents.find((e) => e.type === 'message')!;
    expect([notice.message.display_recipient, notice.message.subject, notice.message.content, notice.flags]).toEqual([
      'Denmark',
      'channel events',
      'Channel Denmark has been archived.',
      ['read'],
    ]);
    expect((await legacy.drain()).filter((e) => e.type === 'stream')).toEqual([
      { type: 'stream', op: 'delete', streams: [{ stream_id: 1 }], stream_ids: [1] },
    ]);

    // Its messages stay readable.
    const narrow = JSON.stringify([{ operator: 'channel', operand: 1 }]);
    const page = expectSuccess(
      await call(getMessages, {
        method: 'GET',
        path: '/messages',
        as: 'hamlet@zulip.com',
        params: { narrow, anchor: 'newest', num_before: 10, num_after: 0 },
      }),
    );
    expect(page.messages.map((m: any) => m.content)).toContain('<p>Channel Denmark has been archived.</p>');
  });

  it('unsets the new-channel announcements channel when it is archived', async () => {
    const cordelia = await openQueue('cordelia@zulip.com');
    expectSuccess(await del('iago@zulip.com', 3));
    expect((await realmsStore.get(2, { consistent: true }))!.newStreamAnnouncementsStreamId).toBeNull();
    expect((await cordelia.drain()).filter((e) => e.type === 'realm')).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { new_stream_announcements_stream_id: -1 } },
    ]);
  });

  it("lets a member of the channel's can_administer_channel_group archive it", async () => {
    await changeChannel(2, 2, { groupSettings: { can_administer_channel_group: { direct_members: [10], direct_subgroups: [] } } });
    expectSuccess(await del('hamlet@zulip.com', 2));
    expect((await stored(2)).isArchived).toBe(true);
  });
});

describe('GET /streams/{stream_id}/email_address', () => {
  const get = (as: string, channelId: number, params: Record<string, unknown> = {}) =>
    call(emailAddress, {
      method: 'GET',
      path: `/streams/${channelId}/email_address`,
      pathParameters: { stream_id: String(channelId) },
      as,
      params,
    });

  it('answers an empty address, as upstream does without an email gateway', async () => {
    expect(expectSuccess(await get('hamlet@zulip.com', 4)).email).toBe('');
    expect(expectSuccess(await get('desdemona@zulip.com', 4, { sender_id: 16 })).email).toBe('');
  });

  it.each([
    ['a private channel the user is not on', 'cordelia@zulip.com', 6, {}, 'Invalid channel ID'],
    ['an archived channel', 'iago@zulip.com', 7, {}, 'Invalid channel ID'],
    ['another user as the sender', 'hamlet@zulip.com', 4, { sender_id: 8 }, 'No such bot'],
    ["someone else's bot as the sender", 'hamlet@zulip.com', 4, { sender_id: 16 }, 'Insufficient permission'],
  ])('refuses %s', async (_label, as, channelId, params, msg) => {
    expectError(await get(as, channelId, params), msg);
  });

  it('refuses a user who may not post in the channel', async () => {
    await changeChannel(2, 4, { groupSettings: { can_send_message_group: 2 } });
    expectError(await get('hamlet@zulip.com', 4), 'You do not have permission to post in this channel.');
    await changeChannel(2, 4, { groupSettings: { can_send_message_group: 6 } });
  });
});
