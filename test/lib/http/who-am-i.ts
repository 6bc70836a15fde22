// A test-only endpoint: authenticated, with typed parameters of every kind, echoing what it parsed.
import { apiHandler } from '../../../lib/http/api-handler';
import { json, rawString } from '../../../lib/http/params';
import { bool, int, list, literal, object, str, string } from '../../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const parsed = params({
    name: rawString().optional(),
    flag: json(bool).default(false),
    count: json(int).optional(),
    ids: json(list(int)).optional(),
    kind: rawString(literal('a', 'b')).optional(),
    short: json(string({ maxLength: 5, minLength: 1 })).optional(),
    thing: json(object({ id: int, label: str }, { optional: ['label'] })).optional(),
  });
  return { user_id: user.id, realm_id: realm.id, parsed };
});
