// Notification Bot's notices for POST /users/me/subscriptions (upstream's
// send_messages_for_new_subscribers), against the development data: 'zulip' announces new
// channels in Verona (3), whose subscribers include Cordelia (8) and Polonius (13, a guest);
// Shiva (15) is on Verona, Denmark and Scotland but not Venice (4) or Rome (5); the default bot
// is user 16; Notification Bot is user 1; 'lear' has no announcements channel.
import { handler as register } from '../../../functions/events/register';
import { handler as subscribe } from '../../../functions/channels/subscribe';
import * as channelsStore from '../../../lib/store/channels';
import { call, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const sub = (as: string, params: Record<string, unknown>) =>
  call(subscribe, { method: 'POST', path: '/users/me/subscriptions', as, params });

/** The message events of a drained queue: [channel name or 'dm', topic, raw content, flags]. */
const messagesOf = (events: Record<string, any>[]) =>
  events
    .filter((e) => e.type === 'message')
    .map((e) => [e.message.type === 'stream' ? e.message.display_recipient : 'dm', e.message.subject, e.message.content, e.flags]);

/** A queue whose message events carry the raw Markdown. */
const rawQueue = (email: string) => openQueue(email, { params: { apply_markdown: false } });

const channelIdOf = async (realmId: number, name: string): Promise<number> =>
  (await channelsStore.listChannelsOfRealm(realmId, { consistent: true })).find((c) => c.name === name)!.id;

const BOT = { sender_id: 1, sender_email: 'notification-bot@zulip.com', sender_full_name: 'Notification Bot' };

describe('POST /users/me/subscriptions: the new channel notices', () => {
  it('posts the first message of a new public channel in its "channel events" topic, read by its creator', async () => {
    const hamlet = await rawQueue('hamlet@zulip.com');
    const shiva = await rawQueue('shiva@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Elsinore', description: 'A castle' }], principals: [10, 15] }));
    const content = '**Public** channel created by @_**King Hamlet|10**. **Description:**\n```` quote\nA castle\n````';
    expect(messagesOf(await hamlet.drain())).toEqual([['Elsinore', 'channel events', content, ['read']]]);
    const shivaEvents = await shiva.drain();
    expect(messagesOf(shivaEvents)).toEqual([['Elsinore', 'channel events', content, []]]);
    expect(shivaEvents.find((e) => e.type === 'message')!.message).toMatchObject({ ...BOT, stream_id: await channelIdOf(2, 'Elsinore') });
  });

  it.each([
    ['private with protected history', { invite_only: true, history_public_to_subscribers: false }, '**Private, protected history**'],
    ['private with shared history', { invite_only: true, history_public_to_subscribers: true }, '**Private, shared history**'],
  ])('names a %s channel and quotes "No description." when it has none', async (_what, params, kind) => {
    const othello = await rawQueue('othello@zulip.com');
    const name = params.history_public_to_subscribers ? 'Rhodes' : 'Cyprus';
    expectSuccess(await sub('othello@zulip.com', { subscriptions: [{ name }], ...params }));
    expect(messagesOf(await othello.drain())).toEqual([
      [
        name,
        'channel events',
        `${kind} channel created by @_**Othello, the Moor of Venice|12**. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
        ['read'],
      ],
    ]);
  });

  it('announces a new channel in Verona when asked to, before the channel events message', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Wittenberg' }], announce: true }));
    const announcement = ['Verona', 'new channels', '@_**King Hamlet|10** created a new channel #**Wittenberg**.'];
    expect(messagesOf(await cordelia.drain())).toEqual([[...announcement, []]]);
    expect(messagesOf(await hamlet.drain()).map((m) => m[1])).toEqual(['new channels', 'channel events']);
  });

  it('announces several new channels in one message, and names a channel that would break #** syntax by a plain link', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Alpha' }, { name: 'B&B' }], announce: true }));
    const id = await channelIdOf(2, 'B&B');
    expect(messagesOf(await cordelia.drain())).toEqual([
      [
        'Verona',
        'new channels',
        `@_**King Hamlet|10** created the following channels: #**Alpha**, [#B&amp;B](#narrow/channel/${id}-B.26B).`,
        [],
      ],
    ]);
  });

  it('announces nothing without announce, and nothing in an organization without an announcements channel', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Norway' }] }));
    expect(messagesOf(await cordelia.drain())).toEqual([]);
    const king = await rawQueue('king@lear.org');
    expectSuccess(await sub('king@lear.org', { subscriptions: [{ name: 'Dover' }], announce: true }));
    expect(messagesOf(await king.drain()).map((m) => m[1])).toEqual(['channel events']);
  });

  it('reports the announcements channel and Notification Bot in register', async () => {
    const body = expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: 'hamlet@zulip.com',
        params: { fetch_event_types: ['realm', 'realm_user'] },
      }),
    );
    expect(body.realm_new_stream_announcements_stream_id).toBe(3);
    expect(body.cross_realm_bots).toEqual([
      expect.objectContaining({
        user_id: 1,
        email: 'notification-bot@zulip.com',
        full_name: 'Notification Bot',
        is_bot: true,
        is_system_bot: true,
      }),
    ]);
  });
});

describe('POST /users/me/subscriptions: telling users someone else subscribed them', () => {
  it('sends a direct message from Notification Bot to a user subscribed to an existing channel', async () => {
    const shiva = await rawQueue('shiva@zulip.com');
    expect(expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Venice' }], principals: [15] }))).toEqual({
      result: 'success',
      msg: '',
      subscribed: { '15': ['Venice'] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
    });
    const events = await shiva.drain();
    expect(messagesOf(events)).toEqual([['dm', '', '@_**King Hamlet|10** subscribed you to #**Venice**.', []]]);
    const dm = events.find((e) => e.type === 'message')!.message;
    expect(dm).toMatchObject({ ...BOT, type: 'private' });
    expect(dm.display_recipient.map((u: { id: number }) => u.id)).toEqual([1, 15]);
  });

  it('lists several channels, sorted, in one message', async () => {
    const aaron = await rawQueue('AARON@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Venice' }, { name: 'Rome' }], principals: [6] }));
    expect(messagesOf(await aaron.drain())).toEqual([
      // The trailing newline upstream's text ends with goes, as every message's content is normalized.
      ['dm', '', '@_**King Hamlet|10** subscribed you to the following channels:\n\n* #**Rome**\n* #**Venice**', []],
    ]);
  });

  it('tells nobody about a channel created by the same request, nor the caller, nor a bot', async () => {
    const shiva = await rawQueue('shiva@zulip.com');
    const hamlet = await rawQueue('hamlet@zulip.com');
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Inverness' }], principals: [10, 15] }));
    expect(messagesOf(await shiva.drain()).map((m) => m[1])).toEqual(['channel events']);
    expectSuccess(await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Venice' }], principals: [10, 16] }));
    expect(messagesOf(await hamlet.drain()).map((m) => m[1])).toEqual(['channel events']);
  });

  it('sends no direct message when send_new_subscription_messages is false, and leaves the field out', async () => {
    const cordelia = await rawQueue('cordelia@zulip.com');
    expect(
      expectSuccess(
        await sub('hamlet@zulip.com', { subscriptions: [{ name: 'Venice' }], principals: [8], send_new_subscription_messages: false }),
      ),
    ).toEqual({ result: 'success', msg: '', subscribed: { '8': ['Venice'] }, already_subscribed: {} });
    expect(messagesOf(await cordelia.drain())).toEqual([]);
  });
});
