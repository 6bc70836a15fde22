// DELETE /navigation_views/{fragment}: removes one of the caller's navigation views.
import { doRemoveNavigationView } from '../../lib/actions/navigation-views';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user, pathString }) => {
  await doRemoveNavigationView(user, pathString('fragment'));
});
