// POST /invites/multiuse
import {
  checkCreateMultiuseInvite,
  DEFAULT_INVITE_EXPIRES_IN_MINUTES,
  MAX_INVITE_EXPIRES_IN_MINUTES,
} from '../../lib/actions/way-in/invitations';
import { apiHandler } from '../../lib/http/api-handler';
import { json } from '../../lib/http/params';
import { bool, int, intInRange, list, literal, nullable } from '../../lib/validation/validators';
import { INVITE_AS } from '../../lib/models/invite';
import { inviteLink } from './link';

export const handler = apiHandler(async ({ user, realm, params, event, hasParam }) => {
  const createInvite = checkCreateMultiuseInvite.authorize(user);
  const p = params({
    group_ids: json(list(int)).optional(),
    include_realm_default_subscriptions: json(bool).default(false),
    invite_as: json(literal(...Object.values(INVITE_AS))).default(INVITE_AS.MEMBER),
    invite_expires_in_minutes: json(nullable(intInRange(-MAX_INVITE_EXPIRES_IN_MINUTES, MAX_INVITE_EXPIRES_IN_MINUTES))).optional(),
    stream_ids: json(list(int)).optional(),
  });
  // An explicit JSON null means a link that never expires; absent means the default lifetime.
  const expires = hasParam('invite_expires_in_minutes') ? (p.invite_expires_in_minutes ?? null) : DEFAULT_INVITE_EXPIRES_IN_MINUTES;
  const invite = await createInvite(realm, {
    invitedAs: p.invite_as,
    expiresInMinutes: expires,
    streamIds: p.stream_ids ?? [],
    groupIds: p.group_ids ?? [],
    includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
  });
  return { invite_link: inviteLink(invite, event.headers) };
});
