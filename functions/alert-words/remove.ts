// DELETE /users/me/alert_words
import { doRemoveAlertWords } from '../../lib/actions/people/alert-words';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { list, str } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { alert_words } = params({ alert_words: json(list(str)) });
  return { alert_words: await doRemoveAlertWords(user, alert_words) };
});
