// POST /mark_all_as_read (deprecated upstream for POST /messages/flags/narrow; the Python library calls it).
import { markAllAsRead } from '../../lib/actions/messages/flags';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => markAllAsRead(user));
