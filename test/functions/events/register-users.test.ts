// The register snapshot as other users of the development data see it: Hamlet (a member),
// Polonius (a guest), and King Lear, whose organization shares nothing with 'zulip'.
import { handler as register } from '../../../functions/events/register';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';
import { call, expectSuccess } from '../../helpers/api';

const snapshot = async (as: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

const ids = (list: { stream_id: number }[]) => list.map((s) => s.stream_id);
const userIds = (list: { user_id: number }[]) => list.map((u) => u.user_id);

const MESSAGE_SECTIONS = ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'];

describe('POST /register as Hamlet (a member)', () => {
  it('lists his subscriptions, and the public channels he never joined', async () => {
    const body = await snapshot('hamlet@zulip.com', { fetch_event_types: ['subscription', 'stream'] });
    expect(ids(body.subscriptions)).toEqual([1, 3, 6]);
    expect(body.unsubscribed).toEqual([]);
    expect(ids(body.never_subscribed)).toEqual([5, 2, 4]);
    expect(ids(body.streams)).toEqual([1, 5, 2, 4, 3, 6]);
  });

  it('summarizes his unread direct and group messages', async () => {
    const body = await snapshot('hamlet@zulip.com', { fetch_event_types: MESSAGE_SECTIONS });
    expect(body.unread_msgs).toEqual({
      count: 2,
      pms: [{ other_user_id: 11, sender_id: 11, unread_message_ids: [12] }],
      huddles: [{ user_ids_string: '10,11,12', unread_message_ids: [13] }],
      streams: [],
      mentions: [],
      old_unreads_missing: false,
    });
    expect(body.max_message_id).toBe(14);
    expect(body.starred_messages).toEqual([]);
    expect(body.recent_private_conversations).toEqual([
      { max_message_id: 13, user_ids: [11, 12] },
      { max_message_id: 12, user_ids: [11] },
    ]);
  });

  it('gives him his own alert words and no snippets or views', async () => {
    const body = await snapshot('hamlet@zulip.com', { fetch_event_types: ['alert_words', 'saved_snippets', 'navigation_views'] });
    expect(body).toMatchObject({ alert_words: ['ghost'], saved_snippets: [], navigation_views: [] });
  });

  it('shows him as a member who may create public and private channels but not web-public ones', async () => {
    const body = await snapshot('hamlet@zulip.com', { fetch_event_types: ['realm_user', 'realm_bot'] });
    expect(body).toMatchObject({
      user_id: 10,
      full_name: 'King Hamlet',
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_create_web_public_streams: false,
      can_create_streams: true,
      can_invite_others_to_realm: true,
      realm_bots: [],
    });
  });
});

describe('POST /register as Polonius (a guest)', () => {
  it('lists only his subscription and the web-public channels', async () => {
    const body = await snapshot('polonius@zulip.com', { fetch_event_types: ['subscription', 'stream'] });
    expect(ids(body.subscriptions)).toEqual([3]);
    expect(body.unsubscribed).toEqual([]);
    expect(ids(body.never_subscribed)).toEqual([5]);
    expect(ids(body.streams)).toEqual([5, 3]);
  });

  it('shows him as a guest without any creation or invitation permission', async () => {
    const body = await snapshot('polonius@zulip.com', { fetch_event_types: ['realm_user'] });
    expect(body).toMatchObject({
      user_id: 13,
      is_guest: true,
      is_admin: false,
      can_create_public_streams: false,
      can_create_private_streams: false,
      can_create_web_public_streams: false,
      can_create_streams: false,
      can_subscribe_other_users: false,
      can_invite_others_to_realm: false,
    });
    // The organization lets everyone, guests included, see every user.
    expect(userIds(body.realm_users)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
  });

  it('gives him subscribers only of the channels he may see them for', async () => {
    const body = await snapshot('polonius@zulip.com', { fetch_event_types: ['subscription'], include_subscribers: 'true' });
    expect(body.subscriptions[0].subscribers).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(body.never_subscribed[0].subscribers).toEqual([7]);
  });

  it('has nothing unread, all Verona messages being read', async () => {
    const body = await snapshot('polonius@zulip.com', { fetch_event_types: MESSAGE_SECTIONS });
    expect(body.unread_msgs).toMatchObject({ count: 0, pms: [], streams: [], huddles: [], mentions: [] });
    expect(body.max_message_id).toBe(14);
  });

  describe('when the organization limits which users guests can see', () => {
    limitGuestsToAccessibleUsers();

    it('shows a user he shares nothing with as an unknown user', async () => {
      const body = await snapshot('polonius@zulip.com', { fetch_event_types: ['realm_user'] });
      // Former (18) shares no channel or conversation with Polonius.
      expect(userIds(body.realm_users)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
      expect(body.realm_non_active_users).toEqual([]);
      expect(body.realm_users.find((u: { user_id: number }) => u.user_id === 18)).toEqual({
        email: 'user18@localhost',
        user_id: 18,
        avatar_version: 1,
        is_admin: false,
        is_owner: false,
        is_guest: false,
        role: 400,
        is_bot: false,
        full_name: 'Unknown user',
        timezone: '',
        is_active: true,
        date_joined: '1970-01-01T00:00+00:00',
        delivery_email: null,
        avatar_url: '/static/images/unknown-user-avatar.png',
        profile_data: {},
      });
    });

    it('leaves that user out for a client with user_list_incomplete', async () => {
      const body = await snapshot('polonius@zulip.com', {
        fetch_event_types: ['realm_user'],
        client_capabilities: { user_list_incomplete: true },
      });
      expect(userIds(body.realm_users)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
      expect(body.realm_non_active_users).toEqual([]);
    });

    it('does not limit what a member sees', async () => {
      const body = await snapshot('hamlet@zulip.com', {
        fetch_event_types: ['realm_user'],
        client_capabilities: { user_list_incomplete: true },
      });
      expect(userIds(body.realm_non_active_users)).toEqual([18]);
    });
  });
});

describe("POST /register as King Lear (another organization's owner)", () => {
  it("sees only his organization's channels and users", async () => {
    const body = await snapshot('king@lear.org', { fetch_event_types: ['subscription', 'stream', 'channel_folders', 'realm_user'] });
    expect(ids(body.subscriptions)).toEqual([10]);
    expect(body.unsubscribed).toEqual([]);
    expect(body.never_subscribed).toEqual([]);
    expect(ids(body.streams)).toEqual([10]);
    expect(body.channel_folders).toEqual([]);
    expect(userIds(body.realm_users)).toEqual([20, 21]);
    expect(body.realm_non_active_users).toEqual([]);
    expect(body).toMatchObject({ user_id: 20, is_owner: true, is_admin: true });
  });

  it('sees his organization as a demo organization with presence disabled, at its subdomain', async () => {
    const body = await snapshot('king@lear.org', { fetch_event_types: ['realm'] });
    expect(body).toMatchObject({
      realm_name: 'Lear & Co.',
      realm_date_created: 1700100000,
      demo_organization_scheduled_deletion_date: 4102444800,
      realm_presence_disabled: true,
      realm_url: 'http://lear.localhost:3000',
      realm_can_access_all_users_group: 26,
      realm_can_add_subscribers_group: 25,
    });
  });

  it("has only his organization's messages: nothing unread, starred or in conversation", async () => {
    const body = await snapshot('king@lear.org', { fetch_event_types: [...MESSAGE_SECTIONS, 'alert_words'] });
    expect(body.unread_msgs).toEqual({ count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false });
    expect(body).toMatchObject({ max_message_id: 15, starred_messages: [], recent_private_conversations: [], alert_words: [] });
  });

  it("lets Edgar see the unread message of his organization's channel", async () => {
    const body = await snapshot('edgar@lear.org', { fetch_event_types: MESSAGE_SECTIONS });
    expect(body.unread_msgs.streams).toEqual([{ stream_id: 10, topic: 'kingdom', unread_message_ids: [15] }]);
    expect(body.unread_msgs.count).toBe(1);
  });
});
