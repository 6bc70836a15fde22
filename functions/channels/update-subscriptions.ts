// PATCH /users/me/subscriptions: subscribe to some channels and unsubscribe from others at once.
import { doUpdateSubscriptions } from '../../lib/actions/channels/update-subscriptions';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { hexColor, list, object, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ realm, user, params }) => {
  const p = params({
    delete: json(list(str)).default([]),
    add: json(list(object({ name: str, color: hexColor('add.color'), description: str }, { optional: ['color', 'description'] }))).default(
      [],
    ),
  });
  return doUpdateSubscriptions(realm, user, p.add, p.delete);
});
