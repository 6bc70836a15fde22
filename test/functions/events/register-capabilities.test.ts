// How client_capabilities, client_gravatar and include_subscribers change the register snapshot.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as register } from '../../../functions/events/register';
import { gravatarUrl } from '../../../lib/models/avatar';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import { call, expectSuccess } from '../../helpers/api';

const IAGO = 'iago@zulip.com';

const snapshot = async (params: Record<string, unknown>, as = IAGO): Promise<Record<string, any>> =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

const byId = (list: Record<string, any>[], id: number): Record<string, any> | undefined => list.find((s) => s.stream_id === id);
const userById = (list: { user_id: number }[], id: number): Record<string, unknown> | undefined =>
  list.find((u) => u.user_id === id) as Record<string, unknown> | undefined;

describe('client capability archived_channels', () => {
  it('adds the archived channels to the subscriptions and streams', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription', 'stream'], client_capabilities: { archived_channels: true } });
    expect(body.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toEqual([1, 7, 2, 3, 6]);
    expect(byId(body.streams, 7)).toMatchObject({ name: 'Old Verona', is_archived: true });
  });

  it('leaves them out otherwise', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription', 'stream'] });
    expect(byId(body.subscriptions, 7)).toBeUndefined();
    expect(byId(body.streams, 7)).toBeUndefined();
  });
});

describe('client capability empty_topic_name', () => {
  it('keeps the empty topic as the empty string', async () => {
    const body = await snapshot({
      fetch_event_types: ['message', 'update_message_flags'],
      client_capabilities: { empty_topic_name: true },
    });
    expect(body.unread_msgs.streams).toContainEqual({ stream_id: 3, topic: '', unread_message_ids: [14] });
    expect(body.unread_msgs.streams.map((s: { topic: string }) => s.topic)).not.toContain('general chat');
  });

  it('shows the display name in its place otherwise', async () => {
    const body = await snapshot({ fetch_event_types: ['message', 'update_message_flags'] });
    expect(body.unread_msgs.streams).toContainEqual({ stream_id: 3, topic: 'general chat', unread_message_ids: [14] });
  });
});

describe('client capability notification_settings_null', () => {
  it('sends unset channel notification settings as null', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } });
    expect(byId(body.subscriptions, 1)).toMatchObject({
      desktop_notifications: true,
      email_notifications: null,
      push_notifications: null,
      audible_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it("sends the user's defaults in their place otherwise", async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'] });
    expect(byId(body.subscriptions, 1)).toMatchObject({
      desktop_notifications: true,
      email_notifications: false,
      push_notifications: false,
      audible_notifications: false,
      wildcard_mentions_notify: true,
    });
  });
});

describe('client_gravatar and client capability user_avatar_url_field_optional', () => {
  it('sends null avatar URLs for Gravatar avatars by default', async () => {
    const body = await snapshot({ fetch_event_types: ['realm_user'] });
    expect(userById(body.realm_users, 10)?.avatar_url).toBeNull();
    // The caller's own avatar is always sent in full.
    expect(body.avatar_url).toBe(gravatarUrl(IAGO));
  });

  it('sends the Gravatar URLs with client_gravatar=false', async () => {
    const body = await snapshot({ fetch_event_types: ['realm_user'], client_gravatar: false });
    expect(userById(body.realm_users, 10)?.avatar_url).toBe(gravatarUrl('hamlet@zulip.com'));
  });

  it('leaves out the avatar of users not connected for a long time, keeping recent users and bots', async () => {
    const body = await snapshot({
      fetch_event_types: ['realm_user'],
      client_gravatar: false,
      client_capabilities: { user_avatar_url_field_optional: true },
    });
    // Aaron (6) has never been connected; Hamlet (10) was 100 s ago; 16 is a bot.
    expect(userById(body.realm_users, 6)).not.toHaveProperty('avatar_url');
    expect(userById(body.realm_users, 10)?.avatar_url).toBe(gravatarUrl('hamlet@zulip.com'));
    expect(userById(body.realm_users, 16)?.avatar_url).toBe(gravatarUrl('default-bot@zulip.com'));
  });
});

describe('include_subscribers', () => {
  it('adds every subscriber list the caller may see', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'], include_subscribers: 'true' });
    expect(body.subscriptions.map((s: { stream_id: number; subscribers: number[] }) => [s.stream_id, s.subscribers])).toEqual([
      [1, [7, 9, 10, 11, 12, 14, 15]],
      [2, [7, 11, 12, 14, 15]],
      [3, [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]],
      [6, [9, 10, 11]],
    ]);
    expect(body.unsubscribed[0].subscribers).toEqual([7, 9, 14]);
    expect(body.never_subscribed[0].subscribers).toEqual([7]);
  });

  it('adds no subscriber lists by default', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'] });
    expect(body.subscriptions[0]).not.toHaveProperty('subscribers');
    expect(body.subscriptions[0]).not.toHaveProperty('partial_subscribers');
  });

  it('does not show a member a private channel he left, nor its subscribers', async () => {
    // Hamlet leaves "core team": a member without metadata access may no longer see it.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: entityKeys.subscription(10, 6),
        UpdateExpression: 'SET active = :false REMOVE gsi1pk, gsi1sk',
        ExpressionAttributeValues: { ':false': false },
      }),
    );
    const body = await snapshot({ fetch_event_types: ['subscription'], include_subscribers: 'true' }, 'hamlet@zulip.com');
    expect(byId(body.subscriptions, 6)).toBeUndefined();
    expect(byId(body.unsubscribed, 6)).toBeUndefined();
    expect(byId(body.never_subscribed, 6)).toBeUndefined();
    expect(byId(body.never_subscribed, 2)?.subscribers).toEqual([7, 11, 12, 14, 15]);
  });

  it('sends full lists with partial for channels under 250 subscribers', async () => {
    const body = await snapshot({ fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    expect(byId(body.subscriptions, 3)).toMatchObject({ subscribers: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] });
    expect(byId(body.subscriptions, 3)).not.toHaveProperty('partial_subscribers');
  });

  it('keeps only bots and users connected in the last 14 days for larger channels with partial', async () => {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName('main'),
        Key: entityKeys.channel(2, 3),
        UpdateExpression: 'SET subscriberCount = :n',
        ExpressionAttributeValues: { ':n': 250 },
      }),
    );
    const body = await snapshot({ fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    // Connected recently: Cordelia (8), Hamlet (10), Iago (11); the bot 16; Othello's last connection is 20 days old.
    expect(byId(body.subscriptions, 3)).toMatchObject({ partial_subscribers: [8, 10, 11, 16], subscriber_count: 250 });
    expect(byId(body.subscriptions, 3)).not.toHaveProperty('subscribers');
  });
});
