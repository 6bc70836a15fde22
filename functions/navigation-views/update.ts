// PATCH /navigation_views/{fragment}: pins, unpins or renames one of the caller's navigation views.
import { checkUpdateNavigationView, navigationViewName } from '../../lib/actions/navigation-views';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params, pathString }) => {
  const fragment = pathString('fragment');
  const { is_pinned, name } = params({ is_pinned: json(bool).optional(), name: rawString(navigationViewName).optional() });
  await checkUpdateNavigationView(user, fragment, { isPinned: is_pinned, name });
});
