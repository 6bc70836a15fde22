// POST /invites
import {
  checkInviteUsersByEmail,
  DEFAULT_INVITE_EXPIRES_IN_MINUTES,
  MAX_INVITE_EXPIRES_IN_MINUTES,
} from '../../lib/actions/way-in/invitations';
import { InvitationError } from '../../lib/errors';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { INVITE_AS } from '../../lib/models/invite';
import { bool, int, intInRange, list, literal, nullable } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, realm, params, hasParam }) => {
  const inviteUsers = checkInviteUsersByEmail.authorize(user);
  const p = params({
    group_ids: json(list(int)).optional(),
    include_realm_default_subscriptions: json(bool).default(false),
    invite_as: json(literal(...Object.values(INVITE_AS))).default(INVITE_AS.MEMBER),
    invite_expires_in_minutes: json(nullable(intInRange(-MAX_INVITE_EXPIRES_IN_MINUTES, MAX_INVITE_EXPIRES_IN_MINUTES))).optional(),
    invitee_emails: rawString(),
    notify_referrer_on_join: json(bool).default(true),
    stream_ids: json(list(int)),
  });
  // An explicit JSON null means invitations that never expire; absent means the default lifetime.
  const expires = hasParam('invite_expires_in_minutes') ? (p.invite_expires_in_minutes ?? null) : DEFAULT_INVITE_EXPIRES_IN_MINUTES;
  const skipped = await inviteUsers(realm, {
    inviteeEmails: p.invitee_emails,
    invitedAs: p.invite_as,
    expiresInMinutes: expires,
    streamIds: p.stream_ids,
    groupIds: p.group_ids ?? [],
    includeRealmDefaultSubscriptions: p.include_realm_default_subscriptions,
    notifyReferrerOnJoin: p.notify_referrer_on_join,
  });
  if (skipped.length > 0) {
    throw new InvitationError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      { sentInvitations: true },
    );
  }
});
