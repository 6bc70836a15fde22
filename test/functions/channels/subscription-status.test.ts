// GET /users/{user_id}/subscriptions/{stream_id}, as upstream's get_subscription_backend: the user
// first (a bot too, since feature level 458), then the channel's metadata for the caller; and
// GET /users/{user_id}/channels, the user's channels that the caller may see.
import { handler as subscriptionStatus } from '../../../functions/channels/subscription-status';
import { handler as userChannels } from '../../../functions/channels/user-channels';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { setSubscribed } from '../../helpers/channels';
import { limitGuestsToAccessibleUsers } from '../../helpers/guest-access';

const status = (as: string, userId: number, channelId: number | string) =>
  call(subscriptionStatus, {
    ...atPath('GET', '/users/{user_id}/subscriptions/{stream_id}', { user_id: userId, stream_id: channelId }),
    as,
  });
const channelsOf = (as: string, userId: number) =>
  call(userChannels, { ...atPath('GET', '/users/{user_id}/channels', { user_id: userId }), as });
const channelIdsOf = async (as: string, userId: number) => expectSuccess(await channelsOf(as, userId)).subscribed_channel_ids as number[];
const isSubscribed = async (as: string, userId: number, channelId: number) =>
  expectSuccess(await status(as, userId, channelId)).is_subscribed as boolean;

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('answers whether the user is subscribed, for a human or a bot, and follows an unsubscription', async () => {
    expect(await isSubscribed('othello@zulip.com', 10, 1)).toBe(true);
    expect(await isSubscribed('othello@zulip.com', 13, 1)).toBe(false);
    expect(await isSubscribed('othello@zulip.com', 16, 3)).toBe(true);
    expect(await isSubscribed('othello@zulip.com', 16, 1)).toBe(false);
    await setSubscribed(2, 10, 1, false);
    expect(await isSubscribed('othello@zulip.com', 10, 1)).toBe(false);
  });

  it('answers about a private channel to an administrator who is not subscribed, and refuses it to others as an invalid channel', async () => {
    // core team (6): desdemona, hamlet and iago are subscribed; othello and shiva (a moderator) are not.
    await setSubscribed(2, 11, 6, false);
    expect(await isSubscribed('iago@zulip.com', 10, 6)).toBe(true);
    expect(await isSubscribed('iago@zulip.com', 11, 6)).toBe(false);
    expectError(await status('shiva@zulip.com', 10, 6), 'Invalid channel ID');
    expectError(await status('othello@zulip.com', 10, 6), 'Invalid channel ID');
    expectError(await status('othello@zulip.com', 10, 999), 'Invalid channel ID');
    expectError(await status('othello@zulip.com', 10, 10), 'Invalid channel ID');
  });

  it.each([
    [20, 'No such user'],
    [999, 'No such user'],
    [18, 'User is deactivated'],
  ])('refuses user %d before looking at the channel: %s', async (userId, message) => {
    expectError(await status('othello@zulip.com', userId, 999), message);
  });

  describe('for a guest limited to the users it may access', () => {
    limitGuestsToAccessibleUsers();

    it('refuses one who shares no channel with it ("Insufficient permission")', async () => {
      expect(await isSubscribed('polonius@zulip.com', 10, 3)).toBe(true);
      await setSubscribed(2, 10, 3, false);
      expectError(await status('polonius@zulip.com', 10, 3), 'Insufficient permission');
    });
  });
});

describe('GET /users/{user_id}/channels', () => {
  it("lists the user's channels the caller may see, ascending: a private one only to its subscribers and administrators", async () => {
    // desdemona: Verona (3), Denmark (1), Venice (4) and the private core team (6).
    expect(await channelIdsOf('iago@zulip.com', 9)).toEqual([1, 3, 4, 6]);
    expect(await channelIdsOf('desdemona@zulip.com', 9)).toEqual([1, 3, 4, 6]);
    expect(await channelIdsOf('othello@zulip.com', 9)).toEqual([1, 3, 4]);
    // A guest sees the subscribers of its own channels only.
    expect(await channelIdsOf('polonius@zulip.com', 9)).toEqual([3]);
    // A bot's too.
    expect(await channelIdsOf('othello@zulip.com', 16)).toEqual([3]);
    // An administrator unsubscribed from the private channel still sees it.
    await setSubscribed(2, 11, 6, false);
    expect(await channelIdsOf('iago@zulip.com', 9)).toEqual([1, 3, 4, 6]);
    // Old Verona (7) is archived.
    expect(await channelIdsOf('iago@zulip.com', 11)).toEqual([1, 2, 3]);
  });

  it.each([
    [20, 'No such user'],
    [999, 'No such user'],
    [18, 'User is deactivated'],
  ])('refuses user %d: %s', async (userId, message) => {
    expectError(await channelsOf('othello@zulip.com', userId), message);
  });
});
