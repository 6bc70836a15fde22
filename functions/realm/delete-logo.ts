// DELETE /realm/logo: an administrator puts the organization's logo (`night`: the dark theme's) back to the default.
import { doDeleteRealmLogo } from '../../lib/actions/organization/images';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params }) => {
  const deleteLogo = doDeleteRealmLogo.authorize(user);
  const { night } = params({ night: json(bool) });
  await deleteLogo(realm, night);
  return {};
});
