// DELETE /users/me/subscriptions: unsubscribe oneself or others from channels.
import { doUnsubscribe } from '../../lib/actions/channels/unsubscribe';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, list, str, union } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const p = params({
    subscriptions: json(list(str)),
    principals: json(union(list(str), list(int))).optional(),
  });
  return doUnsubscribe(user, p.subscriptions, p.principals);
});
