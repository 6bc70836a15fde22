// POST /channels/create: create one channel and subscribe the users listed in `subscribers`
// (upstream's create_channel, feature level 417), through the same creation code as POST
// /users/me/subscriptions, with the same settings of the new channel (new-channel-params.ts).
import { doSubscribe } from '../../lib/actions/channels/subscriptions';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool, int, list } from '../../lib/validation/validators';
import { newChannelOptions, newChannelParams } from './new-channel-params';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({
    name: rawString(),
    subscribers: json(list(int)),
    description: rawString().default(''),
    announce: json(bool).default(false),
    invite_only: json(bool).default(false),
    history_public_to_subscribers: json(bool).optional(),
    // Accepted as upstream's: no "subscribed you" message is ever sent for a channel just created.
    send_new_subscription_messages: json(bool).default(true),
    ...newChannelParams,
  });
  return doSubscribe(realm, user, {
    channels: [{ name: p.name, description: p.description }],
    principals: p.subscribers,
    authorizationErrorsFatal: true,
    inviteOnly: p.invite_only,
    historyPublicToSubscribers: p.history_public_to_subscribers,
    announce: p.announce,
    sendNewSubscriptionMessages: false,
    createOnly: true,
    options: newChannelOptions(p),
  });
});
