// POST /users/me/subscriptions: subscribe oneself or others to channels, creating missing ones.
import { doSubscribe } from '../../lib/actions/channels/subscriptions';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool, hexColor, int, list, object, str, union } from '../../lib/validation/validators';
import { newChannelOptions, newChannelParams } from './new-channel-params';

export const handler = apiHandler(async ({ realm, user, params }) => {
  // Declaration order is upstream's validation order.
  const p = params({
    subscriptions: json(
      list(object({ name: str, description: str, color: hexColor('add.color') }, { optional: ['description', 'color'], allowExtra: true })),
    ),
    principals: json(union(list(str), list(int))).optional(),
    authorization_errors_fatal: json(bool).default(true),
    invite_only: json(bool).default(false),
    history_public_to_subscribers: json(bool).optional(),
    announce: json(bool).default(false),
    send_new_subscription_messages: json(bool).default(true),
    ...newChannelParams,
  });
  return doSubscribe(realm, user, {
    channels: p.subscriptions,
    principals: p.principals,
    authorizationErrorsFatal: p.authorization_errors_fatal,
    inviteOnly: p.invite_only,
    historyPublicToSubscribers: p.history_public_to_subscribers,
    announce: p.announce,
    sendNewSubscriptionMessages: p.send_new_subscription_messages,
    options: newChannelOptions(p),
  });
});
