// GET /realm/emoji: every custom emoji of the organization, deactivated ones too, by id.
import { listRealmEmoji } from '../../lib/actions/organization/emoji';
import { apiHandler } from '../../lib/http/api-handler';

export const handler = apiHandler(async ({ user }) => ({ emoji: await listRealmEmoji(user.realmId) }));
