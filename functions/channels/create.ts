// POST /channels/create: create one channel and subscribe the users listed in `subscribers`
// (upstream's create_channel, feature level 417), through the same creation code as POST
// /users/me/subscriptions.
import { doSubscribe } from '../../lib/actions/channels/subscriptions';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool, int, list } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({
    name: rawString(),
    subscribers: json(list(int)),
    description: rawString().default(''),
    announce: json(bool).default(false),
    invite_only: json(bool).default(false),
    history_public_to_subscribers: json(bool).optional(),
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
  });
});
