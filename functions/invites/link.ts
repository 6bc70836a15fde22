// Invitation links as the API shows them: the link is built from the address the client used,
// so it works on whatever host serves this organization.
import type { EmailInvite, MultiuseInvite } from '../../lib/models/invite';

type Headers = Record<string, string | undefined> | undefined;

/** `<scheme>://<host>`: the forwarded scheme when a proxy sets one, else http only for local hosts. */
export const originOf = (headers: Headers): string => {
  const host = headers?.host ?? 'localhost';
  const forwarded = headers?.['x-forwarded-proto'];
  const scheme =
    forwarded ?? (/^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host) || /\.localhost(:\d+)?$/.test(host) ? 'http' : 'https');
  return `${scheme}://${host}`;
};

export const inviteLink = (invite: MultiuseInvite, headers: Headers): string => `${originOf(headers)}/join/${invite.confirmationKey}/`;

/** An entry of GET /invites (upstream's multiuse invite dict). */
export const toApiInvite = (invite: MultiuseInvite, headers: Headers): Record<string, unknown> => ({
  invited_by_user_id: invite.referredBy,
  invited: invite.dateCreated,
  expiry_date: invite.expiryDate,
  id: invite.id,
  link_url: inviteLink(invite, headers),
  invited_as: invite.invitedAs,
  is_multiuse: true,
});

/** An email invitation's entry of GET /invites (upstream's prereg user dict). */
export const toApiEmailInvite = (invite: EmailInvite): Record<string, unknown> => ({
  email: invite.email,
  invited_by_user_id: invite.referredBy,
  invited: invite.dateCreated,
  expiry_date: invite.expiryDate,
  id: invite.id,
  invited_as: invite.invitedAs,
  is_multiuse: false,
  notify_referrer_on_join: invite.notifyReferrerOnJoin,
});
