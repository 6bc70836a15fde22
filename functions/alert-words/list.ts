// GET /users/me/alert_words
import { listAlertWords } from '../../lib/actions/people/alert-words';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ alert_words: await listAlertWords(user) }));
