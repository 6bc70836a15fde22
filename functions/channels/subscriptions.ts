// GET /users/me/subscriptions: the caller's subscriptions, optionally with their subscribers.
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { channelReadContext, ownSubscriptionList } from '../../lib/state/channels';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({ include_subscribers: json(bool).default(false) });
  const ctx = channelReadContext(realm, user, {
    includeSubscribers: p.include_subscribers ? 'true' : 'false',
    capabilities: { notification_settings_null: true },
  });
  return { subscriptions: await ownSubscriptionList(ctx, user) };
});
