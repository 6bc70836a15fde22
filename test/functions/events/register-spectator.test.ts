// POST /register without credentials: a spectator of an organization with public access.
import { handler as register } from '../../../functions/events/register';
import { call, expectError, expectSuccess } from '../../helpers/api';

const spectate = (params: Record<string, unknown> = {}, host?: string) =>
  call(register, { method: 'POST', path: '/register', params, ...(host ? { headers: { host } } : {}) });

describe('POST /register without credentials', () => {
  it('returns no queue, no last_event_id and no timeout', async () => {
    const body = expectSuccess(await spectate({ fetch_event_types: ['alert_words'] }));
    expect(body.queue_id).toBeNull();
    expect(body).not.toHaveProperty('last_event_id');
    expect(body).not.toHaveProperty('idle_queue_timeout_secs');
  });

  it('serves the organization of the Host header, the default one at the bare host', async () => {
    const body = expectSuccess(await spectate({ fetch_event_types: ['realm'] }, 'zulip.localhost:3000'));
    expect(body.realm_name).toBe('Zulip Dev');
  });

  it('refuses an organization without public access', async () => {
    const result = await spectate({}, 'lear.localhost:3000');
    expectError(result, 'Not logged in: API authentication or user session required', 401, 'UNAUTHORIZED');
  });

  it.each([
    ['client_gravatar', { client_gravatar: true }],
    ['include_subscribers', { include_subscribers: 'true' }],
  ])("refuses %s=true with upstream's message", async (name, params) => {
    expectError(await spectate(params), `Invalid '${name}' parameter for anonymous request`);
  });

  it('shows only the web-public channels, as simulated new subscriptions', async () => {
    const body = expectSuccess(await spectate({ fetch_event_types: ['subscription', 'stream', 'channel_folders'] }));
    expect(body.subscriptions).toHaveLength(1);
    expect(body.subscriptions[0]).toMatchObject({
      stream_id: 5,
      name: 'Rome',
      is_web_public: true,
      color: '#76ce90',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: true,
      email_notifications: true,
      push_notifications: true,
      audible_notifications: true,
      wildcard_mentions_notify: true,
    });
    expect(body.unsubscribed).toEqual([]);
    expect(body.never_subscribed).toEqual([]);
    // Upstream leaves `streams` out for spectators: their channels are the subscriptions above.
    expect(body).not.toHaveProperty('streams');
    expect(body.channel_folders.map((f: { id: number }) => f.id)).toEqual([1]);
  });

  it('gives empty personal sections', async () => {
    const body = expectSuccess(
      await spectate({
        fetch_event_types: [
          'message',
          'update_message_flags',
          'starred_messages',
          'recent_private_conversations',
          'alert_words',
          'onboarding_steps',
          'saved_snippets',
          'navigation_views',
          'muted_users',
          'user_status',
          'user_topic',
          'realm_bot',
        ],
      }),
    );
    expect(body).toMatchObject({
      max_message_id: -1,
      unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
      starred_messages: [],
      recent_private_conversations: [],
      alert_words: [],
      onboarding_steps: [],
      saved_snippets: [],
      navigation_views: [],
      muted_users: [],
      user_status: {},
      user_topics: [],
      realm_bots: [],
    });
  });

  it('shows the spectator as an anonymous guest, and users without time zones, emails or profile data', async () => {
    const body = expectSuccess(await spectate({ fetch_event_types: ['realm_user', 'realm'] }));
    expect(body).toMatchObject({
      user_id: 0,
      full_name: 'Anonymous User',
      email: 'username@example.com',
      is_guest: true,
      is_admin: false,
      can_create_streams: false,
      realm_presence_disabled: true,
      realm_allow_message_editing: false,
    });
    const hamlet = body.realm_users.find((u: { user_id: number }) => u.user_id === 10);
    expect(hamlet).toMatchObject({ full_name: 'King Hamlet', date_joined: '2023-11-14', delivery_email: null });
    expect(hamlet).not.toHaveProperty('timezone');
    expect(hamlet).not.toHaveProperty('profile_data');
  });
});
