// POST /users/me/subscriptions/properties: change the caller's own settings of subscriptions.
import { doChangeSubscriptionProperties } from '../../lib/actions/channels/subscription-settings';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list, object, str, union, bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({
    subscription_data: json(list(object({ stream_id: int, property: str, value: union(str, bool) }))),
  });
  await doChangeSubscriptionProperties(user, p.subscription_data);
  return {};
});
