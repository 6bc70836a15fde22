// GET /navigation_views: the caller's navigation views.
import { listNavigationViews } from '../../lib/actions/navigation-views';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ navigation_views: await listNavigationViews(user) }));
