// POST /json/users/me/sign_out_other_sessions (ours: the web app's "Sign out of other sessions"):
// every web session of the caller ends but the one asking, whose next requests still work; other
// people's sessions stay. Through the API (an API key, no session to keep) it is refused and
// nothing ends; at /json/ it needs the CSRF token like any other change.
import { handler as getOwnUser } from '../../../functions/users/me';
import { handler as signOutOthers } from '../../../functions/users/sign-out-other-sessions';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { PageClient, signedInBrowser } from '../../helpers/web';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const PATH = '/users/me/sign_out_other_sessions';

const signedIn = (email = IAGO): Promise<PageClient> => signedInBrowser(email);

/** Whether a browser's session still authenticates a /json/ request. */
const stillSignedIn = async (browser: PageClient): Promise<boolean> =>
  (await call(getOwnUser, { path: '/users/me', json: { cookies: browser.jsonSession().cookies } })).status === 200;

describe('POST /json/users/me/sign_out_other_sessions', () => {
  it("ends the caller's other sessions, keeps the one asking and other people's", async () => {
    const [asking, otherTab, phone] = [await signedIn(), await signedIn(), await signedIn()];
    const hamlet = await signedIn(HAMLET);
    const body = expectSuccess(await call(signOutOthers, { method: 'POST', path: PATH, json: asking.jsonSession() }));
    expect(body.sessions_ended).toBe(2);
    expect(await Promise.all([asking, otherTab, phone, hamlet].map(stillSignedIn))).toEqual([true, false, false, true]);
    // The page of a signed-out browser is the login page again.
    expect((await otherTab.get('/')).headers.Location).toBe('/login/');
    // Nothing else to end the second time.
    expect(expectSuccess(await call(signOutOthers, { method: 'POST', path: PATH, json: asking.jsonSession() })).sessions_ended).toBe(0);
  });

  it('refuses the API (no session to keep) and a request without the CSRF token, and ends nothing', async () => {
    const [first, second] = [await signedIn(), await signedIn()];
    expectError(
      await call(signOutOthers, { method: 'POST', path: PATH, as: IAGO }),
      'Only a signed-in browser session can sign out its other sessions.',
      400,
      'BAD_REQUEST',
    );
    expectError(
      await call(signOutOthers, { method: 'POST', path: PATH, json: { cookies: first.jsonSession().cookies } }),
      'CSRF error: CSRF token missing.',
      403,
      'CSRF_FAILED',
    );
    expect(await Promise.all([first, second].map(stillSignedIn))).toEqual([true, true]);
  });
});
