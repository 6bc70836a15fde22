// POST /users/me/sign_out_other_sessions (ours, the web app's "Sign out of other sessions"; upstream
// has no such endpoint): ends every web session of the caller but the one asking. Only at /json/,
// with a session: an API key names no session to keep.
import { logOutOtherSessions } from '../../lib/actions/way-in/web-sessions';
import { BadRequestError } from '../../lib/errors';
import { apiHandler } from '../../lib/http/api-handler';
import { jsonSessionTokenHash } from '../../lib/http/session';

export const handler = apiHandler(async ({ user, event }) => {
  const tokenHash = jsonSessionTokenHash(event);
  if (tokenHash === undefined) throw new BadRequestError('Only a signed-in browser session can sign out its other sessions.');
  return { sessions_ended: await logOutOtherSessions({ tokenHash, userId: user.id }) };
});
