// POST /realm/deactivate: an owner deactivates the organization.
import { doDeactivateRealm } from '../../lib/actions/organization/settings';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { int, nullable } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const deactivateRealm = doDeactivateRealm.authorize(user);
  // Upstream's Json[int | None]; with no deletion limits configured (register's
  // server_max_deactivated_realm_deletion_days is null) any value is accepted.
  params({ deletion_delay_days: json(nullable(int)).optional() });
  await deactivateRealm();
  return {};
});
