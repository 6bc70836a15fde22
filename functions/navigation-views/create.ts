// POST /navigation_views: configures a built-in view or adds a custom one for the caller.
import { checkAddNavigationView, navigationViewFragment, navigationViewName } from '../../lib/actions/navigation-views';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { bool } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { fragment, is_pinned, name } = params({
    fragment: rawString(navigationViewFragment),
    is_pinned: json(bool),
    name: rawString(navigationViewName).optional(),
  });
  await checkAddNavigationView(user, { fragment, isPinned: is_pinned, name });
});
