// PATCH /users/me/subscriptions/{stream_id}: change one setting of the caller's subscription.
import { doChangeSubscriptionProperties } from '../../lib/actions/channels/subscription-settings';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';

export const handler = apiHandler(async ({ user, pathInt, params }) => {
  const p = params({ property: rawString(), value: rawString() });
  // Upstream's `Json[bool] | str`, left to right: a JSON boolean, else the text as sent.
  const value = p.value === 'true' ? true : p.value === 'false' ? false : p.value;
  await doChangeSubscriptionProperties(user, [{ stream_id: pathInt('stream_id'), property: p.property, value }]);
  return {};
});
