// The register snapshot's sections for the development data's administrator, Iago: each section's
// exact content (the development data's expected_for_iago block for the message sections), and
// which sections event_types / fetch_event_types select.
import fixture from '../../../seed/dev-realm.json';
import { handler as register } from '../../../functions/events/register';
import { gravatarUrl } from '../../../lib/models/avatar';
import { call, expectSuccess } from '../../helpers/api';
import { expectRegisterKeys } from '../../helpers/openapi';

const IAGO = 'iago@zulip.com';
const expected = fixture.expected_for_iago;

const snapshot = async (params: Record<string, unknown> = {}, as = IAGO): Promise<Record<string, any>> =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

const ids = (list: { stream_id: number }[]) => list.map((s) => s.stream_id);

describe('POST /register: the message sections for Iago', () => {
  it('returns the unread summary of expected_for_iago, the empty topic shown as the display name', async () => {
    const body = await snapshot({ fetch_event_types: ['message', 'update_message_flags'] });
    const emptyTopicName = fixture.realms[0].empty_topic_display_name;
    expect(body.unread_msgs).toEqual({
      count: expected.unread_count,
      pms: expected.unread_pms.map((p) => ({ ...p, sender_id: p.other_user_id })),
      huddles: expected.unread_huddles,
      mentions: expected.unread_mentions,
      old_unreads_missing: false,
      streams: expect.any(Array),
    });
    const streams = expected.unread_streams.map((s) => (s.topic === '' ? { ...s, topic: emptyTopicName } : s));
    expect(body.unread_msgs.streams).toEqual(expect.arrayContaining(streams));
    expect(body.unread_msgs.streams).toHaveLength(streams.length);
  });

  it("lists a muted channel's unread messages without counting them or its wildcard mention", async () => {
    const body = await snapshot({ fetch_event_types: ['message', 'update_message_flags'] });
    // Scotland (2) is muted for Iago: messages 9 and 10 are listed, 10's @all is not a mention.
    expect(body.unread_msgs.streams).toContainEqual({ stream_id: 2, topic: 'highlands', unread_message_ids: [9, 10] });
    expect(body.unread_msgs.mentions).not.toContain(10);
    expect(body.unread_msgs.count).toBe(6);
  });

  it('returns max_message_id, the starred ids and the recent conversations of expected_for_iago', async () => {
    const body = await snapshot({ fetch_event_types: ['message', 'starred_messages', 'recent_private_conversations'] });
    expect(body.max_message_id).toBe(expected.max_message_id);
    expect(body.starred_messages).toEqual(expected.starred_messages);
    expect(body.recent_private_conversations).toEqual(expected.recent_private_conversations);
  });
});

describe('POST /register: the channel sections for Iago', () => {
  it('lists the subscribed channels by name, archived ones left out', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'] });
    expect(ids(body.subscriptions)).toEqual([1, 2, 3, 6]);
    expect(ids(body.unsubscribed)).toEqual([4]);
    expect(ids(body.never_subscribed)).toEqual([5]);
  });

  it("returns every field of a subscription, with the caller's own settings", async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'] });
    expect(body.subscriptions[0]).toEqual({
      stream_id: 1,
      name: 'Denmark',
      description: 'A Scandinavian country',
      rendered_description: '<p>A Scandinavian country</p>',
      date_created: 1700002000,
      creator_id: 11,
      invite_only: false,
      is_web_public: false,
      is_archived: false,
      stream_post_policy: 1,
      is_announcement_only: false,
      message_retention_days: null,
      history_public_to_subscribers: true,
      topics_policy: 'inherit',
      first_message_id: 8,
      folder_id: null,
      is_recently_active: true,
      stream_weekly_traffic: null,
      subscriber_count: 7,
      can_add_subscribers_group: { direct_members: [], direct_subgroups: [] },
      can_remove_subscribers_group: 11,
      can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
      can_delete_any_message_group: { direct_members: [], direct_subgroups: [] },
      can_delete_own_message_group: 6,
      can_move_messages_out_of_channel_group: 8,
      can_move_messages_within_channel_group: 8,
      can_send_message_group: 6,
      can_subscribe_group: { direct_members: [], direct_subgroups: [] },
      can_resolve_topics_group: 8,
      can_create_topic_group: 6,
      color: '#e79ab5',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: true,
      email_notifications: false,
      push_notifications: false,
      audible_notifications: false,
      wildcard_mentions_notify: true,
    });
  });

  it('shows a muted channel as is_muted with in_home_view false, and a pinned one with its color', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'] });
    const byId = new Map(body.subscriptions.map((s: { stream_id: number }) => [s.stream_id, s]));
    expect(byId.get(2)).toMatchObject({ name: 'Scotland', is_muted: true, in_home_view: false, pin_to_top: false });
    expect(byId.get(3)).toMatchObject({
      name: 'Verona',
      is_muted: false,
      pin_to_top: true,
      color: '#76ce90',
      folder_id: 1,
      subscriber_count: 11,
    });
  });

  it('gives a channel without messages no first message and marks it not recently active', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'], client_capabilities: { archived_channels: true } });
    const oldVerona = body.subscriptions.find((s: { stream_id: number }) => s.stream_id === 7);
    expect(oldVerona).toMatchObject({ is_archived: true, first_message_id: null, is_recently_active: false, subscriber_count: 1 });
  });

  it('lists every channel an administrator can see in streams, private ones included', async () => {
    const body = await snapshot({ fetch_event_types: ['stream'] });
    expect(body.streams.map((s: { name: string }) => s.name)).toEqual(['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'core team']);
    expect(body.streams[0]).not.toHaveProperty('color');
    expect(body.streams.find((s: { stream_id: number }) => s.stream_id === 6)).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
    });
  });

  it('returns the channel folders in display order, archived ones included', async () => {
    const body = await snapshot({ fetch_event_types: ['channel_folders'] });
    expect(body.channel_folders).toEqual([
      {
        id: 1,
        name: 'Italy',
        description: 'Channels about **Italian** cities',
        rendered_description: '<p>Channels about <strong>Italian</strong> cities</p>',
        order: 0,
        date_created: 1700003000,
        creator_id: 11,
        is_archived: false,
      },
      {
        id: 2,
        name: 'Archive',
        description: '',
        rendered_description: '',
        order: 1,
        date_created: 1700003100,
        creator_id: 11,
        is_archived: true,
      },
    ]);
  });
});

describe('POST /register: the personal sections for Iago', () => {
  it('returns the alert words, onboarding steps, saved snippets and navigation views', async () => {
    const body = await snapshot({ fetch_event_types: ['alert_words', 'onboarding_steps', 'saved_snippets', 'navigation_views'] });
    expect(body.alert_words).toEqual(['alert', 'Othello']);
    expect(body.onboarding_steps).toEqual(fixture.onboarding_steps.default);
    expect(body.navigation_tour_video_url).toBeNull();
    expect(body.saved_snippets).toEqual([{ id: 1, title: 'Greeting', content: 'Hello **everyone**!', date_created: 1700006000 }]);
    expect([...body.navigation_views].sort((a, b) => a.fragment.localeCompare(b.fragment))).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/channel/3-Verona', is_pinned: true, name: 'Verona' },
    ]);
  });

  it('returns the personal settings with the stored time zone, presence and draft settings', async () => {
    const body = await snapshot({ fetch_event_types: ['user_settings'] });
    expect(body.user_settings).toMatchObject({
      timezone: 'US/Eastern',
      presence_enabled: true,
      enable_drafts_synchronization: true,
      email_address_visibility: 1,
      emojiset_choices: expect.arrayContaining([{ key: 'google', text: 'Google' }]),
    });
    // Upstream dropped the legacy top-level copies below this server's feature level.
    expect(body).not.toHaveProperty('enter_sends');
    expect(body).not.toHaveProperty('twenty_four_hour_time');
  });

  it("shows Othello's disabled draft synchronization in his settings", async () => {
    const body = await snapshot({ fetch_event_types: ['user_settings'] }, 'othello@zulip.com');
    expect(body.user_settings.enable_drafts_synchronization).toBe(false);
  });
});

describe('POST /register: the realm and realm_user sections for Iago', () => {
  it('returns the organization, its limits and its group settings', async () => {
    const body = await snapshot({ fetch_event_types: ['realm'] });
    expect(body).toMatchObject({
      realm_name: 'Zulip Dev',
      realm_description: "The development environment's default organization.",
      realm_date_created: 1700000000,
      realm_url: 'http://localhost:3000',
      realm_uri: 'http://localhost:3000',
      realm_presence_disabled: false,
      realm_enable_spectator_access: true,
      realm_waiting_period_threshold: 0,
      realm_empty_topic_display_name: 'general chat',
      realm_allow_message_editing: true,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      max_topic_length: 60,
      realm_can_create_web_public_channel_group: 12,
      realm_create_multiuse_invite_group: 2,
      realm_can_access_all_users_group: 6,
      // Not stored for this organization: upstream's default, role:members.
      realm_can_add_subscribers_group: 5,
      realm_wildcard_mention_policy: 1,
    });
    expect(body).not.toHaveProperty('demo_organization_scheduled_deletion_date');
    expect(body).not.toHaveProperty('realm_users');
  });

  it("returns Iago's identity, role, avatar and permissions", async () => {
    const body = await snapshot({ fetch_event_types: ['realm_user'] });
    expect(body).toMatchObject({
      user_id: 11,
      email: IAGO,
      delivery_email: IAGO,
      full_name: 'Iago',
      is_admin: true,
      is_owner: false,
      is_moderator: true,
      is_guest: false,
      avatar_source: 'G',
      avatar_url: gravatarUrl(IAGO),
      avatar_url_medium: gravatarUrl(IAGO, { medium: true }),
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_create_web_public_streams: true,
      can_create_streams: true,
      can_subscribe_other_users: true,
      can_invite_others_to_realm: true,
      cross_realm_bots: [
        expect.objectContaining({ user_id: 1, email: 'notification-bot@zulip.com', full_name: 'Notification Bot', is_system_bot: true }),
      ],
    });
  });

  it('lists the active users and, apart, the deactivated ones, bots with their owners', async () => {
    const body = await snapshot({ fetch_event_types: ['realm_user'] });
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toEqual([18]);
    expect(body.realm_users.find((u: { user_id: number }) => u.user_id === 16)).toEqual({
      email: 'default-bot@zulip.com',
      user_id: 16,
      avatar_version: 1,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      role: 400,
      is_bot: true,
      full_name: 'Zulip Default Bot',
      timezone: '',
      is_active: true,
      date_joined: '2023-11-14T22:40+00:00',
      delivery_email: 'default-bot@zulip.com',
      avatar_url: null,
      bot_type: 1,
      bot_owner_id: 9,
    });
  });

  it('gives each human user their profile data, with rendered values for text fields', async () => {
    const body = await snapshot({ fetch_event_types: ['realm_user'] });
    const hamlet = body.realm_users.find((u: { user_id: number }) => u.user_id === 10);
    expect(hamlet.profile_data['2']).toEqual({
      value: fixture.profile_data['10']['2'],
      rendered_value: '<p>I am:</p>\n<ul>\n<li>The prince of Denmark</li>\n<li>Nephew to the usurping Claudius</li>\n</ul>',
    });
    expect(hamlet.profile_data['7']).toEqual({ value: '[11]' });
    expect(Object.keys(hamlet.profile_data).sort((a, b) => Number(a) - Number(b))).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(body.realm_users.find((u: { user_id: number }) => u.user_id === 6).profile_data).toEqual({});
  });

  it('returns the bots an administrator administers', async () => {
    const body = await snapshot({ fetch_event_types: ['realm_bot'] });
    expect(body.realm_bots.map((b: { user_id: number }) => b.user_id)).toEqual([16, 17]);
    const zoe = await snapshot({ fetch_event_types: ['realm_bot'] }, 'ZOE@zulip.com');
    expect(zoe.realm_bots).toEqual([
      { user_id: 17, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false, services: [] },
    ]);
  });
});

describe('POST /register: which sections a client gets', () => {
  it('returns every key the mobile client requires, with its type, when no event_types are given', async () => {
    expectRegisterKeys(await snapshot());
  });

  it('returns only the sections of event_types, leaving out unread_msgs without update_message_flags', async () => {
    const body = await snapshot({ event_types: ['message', 'alert_words'] });
    expect(body.max_message_id).toBe(14);
    expect(body.alert_words).toEqual(['alert', 'Othello']);
    for (const key of ['unread_msgs', 'subscriptions', 'streams', 'realm_users', 'realm_name', 'user_settings', 'starred_messages']) {
      expect(body).not.toHaveProperty(key);
    }
  });

  it('takes the sections from fetch_event_types when both are given, ignoring unknown types', async () => {
    const body = await snapshot({ event_types: ['realm'], fetch_event_types: ['message', 'update_message_flags', 'no_such_type'] });
    expect(body.unread_msgs.count).toBe(6);
    expect(body).not.toHaveProperty('realm_name');
  });
});
