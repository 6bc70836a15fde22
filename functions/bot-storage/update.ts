// PUT /bot_storage: sets keys of the caller's own storage.
import { checkSetBotStorage } from '../../lib/actions/people/bot-storage';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { dict, str, type Validator } from '../../lib/validation/validators';

const stringMap: Validator<Record<string, string>> = (value, path) =>
  Object.fromEntries(Object.entries(dict(value, path)).map(([k, v]) => [k, str(v, `${path}["${k}"]`)]));

export const handler = apiHandler(async ({ user, params }) => {
  const { storage } = params({ storage: json(stringMap) });
  await checkSetBotStorage(user, storage);
  return {};
});
