// Invitations (upstream's #organization/invites), for administrators: invite people by email or
// create a reusable invite link (POST /json/invites, /json/invites/multiuse), each with a lifetime
// and the channels the newcomer joins; the pending ones listed (GET /json/invites) and revoked after
// confirming (DELETE). The list is fetched again on each invites_changed event, so every
// administrator's page follows; the server's refusals show as it words them.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api/client';
import { browsedChannels } from '../../data/channel-browser';
import { userName } from '../../data/people';
import { channels, invitesVersion, people } from '../../store';
import { ConfirmDialog } from './ConfirmDialog';
import { Status, type StatusText } from './Status';

type Invite = {
  id: number;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
  invited_by_user_id: number;
  expiry_date: number | null;
};

/** Upstream's choices of lifetime, in minutes; null never expires. */
const LIFETIMES: { minutes: number | null; label: string }[] = [
  { minutes: 60 * 24, label: '1 day' },
  { minutes: 60 * 24 * 10, label: '10 days' },
  { minutes: 60 * 24 * 30, label: '30 days' },
  { minutes: null, label: 'Never expires' },
];

const expiryText = (expiry: number | null): string => (expiry === null ? 'Never' : new Date(expiry * 1000).toLocaleString());

const InviteForm = () => {
  const [emails, setEmails] = useState('');
  const [lifetime, setLifetime] = useState(1);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [status, setStatus] = useState<StatusText>(null);
  const [link, setLink] = useState<string | null>(null);
  const common = () => ({ invite_expires_in_minutes: LIFETIMES[lifetime]!.minutes, stream_ids: [...chosen] });
  const send = (kind: 'email' | 'link') => {
    setStatus(null);
    setLink(null);
    const done =
      kind === 'email'
        ? request('POST', 'invites', { ...common(), invitee_emails: emails }).then(() => {
            setEmails('');
            setStatus({ text: 'Invitations sent.', error: false });
          })
        : request<{ invite_link: string }>('POST', 'invites/multiuse', common()).then((answer) => setLink(answer.invite_link));
    done.catch((err: Error) => setStatus({ text: err.message, error: true }));
  };
  return (
    <form class="invite-form" onSubmit={(e) => e.preventDefault()}>
      <label>
        Emails (one per line or separated by commas)
        <textarea rows={2} value={emails} onInput={(e) => setEmails(e.currentTarget.value)} />
      </label>
      <label>
        Invitation expires after
        <select value={String(lifetime)} onChange={(e) => setLifetime(Number(e.currentTarget.value))}>
          {LIFETIMES.map((l, i) => (
            <option key={l.label} value={String(i)}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      <fieldset class="settings-radios invite-channels">
        <legend>Channels they join</legend>
        {browsedChannels(channels.value, 'all').map((c) => (
          <label key={c.streamId}>
            <input
              type="checkbox"
              checked={chosen.has(c.streamId)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.currentTarget.checked) next.add(c.streamId);
                else next.delete(c.streamId);
                setChosen(next);
              }}
            />{' '}
            #{c.name}
          </label>
        ))}
      </fieldset>
      <div class="invite-buttons">
        <button type="submit" onClick={() => send('email')}>
          Send invitations
        </button>
        <button type="button" onClick={() => send('link')}>
          Create invite link
        </button>
      </div>
      {link && (
        <label>
          Invite link
          <input type="text" class="invite-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        </label>
      )}
      <Status status={status} />
    </form>
  );
};

export const InvitationsSection = () => {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Invite | null>(null);
  const version = invitesVersion.value;
  useEffect(() => {
    let live = true;
    request<{ invites: Invite[] }>('GET', 'invites').then(
      (answer) => live && setInvites(answer.invites),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [version]);
  return (
    <>
      <h3>Invite people</h3>
      <InviteForm />
      <h3>Pending invitations</h3>
      {error && (
        <p class="settings-error" role="alert">
          {error}
        </p>
      )}
      {invites?.length === 0 && <p class="settings-empty">No pending invitations.</p>}
      {invites && invites.length > 0 && (
        <table class="admin-table invites-table">
          <thead>
            <tr>
              <th scope="col">Invitee</th>
              <th scope="col">Invited by</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={`${invite.is_multiuse}-${invite.id}`} data-invite-id={invite.id} data-multiuse={String(invite.is_multiuse)}>
                <td>{invite.is_multiuse ? <em>Invite link</em> : invite.email}</td>
                <td>{userName(people.value, invite.invited_by_user_id) ?? 'Unknown user'}</td>
                <td>{expiryText(invite.expiry_date)}</td>
                <td>
                  <button type="button" class="revoke danger" onClick={() => setRevoking(invite)}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ConfirmDialog
          title={revoking.is_multiuse ? 'Revoke this invite link?' : `Revoke the invitation to ${revoking.email ?? ''}?`}
          confirmLabel="Revoke"
          onConfirm={() => request('DELETE', revoking.is_multiuse ? `invites/multiuse/${revoking.id}` : `invites/${revoking.id}`)}
          onClose={() => setRevoking(null)}
        >
          <p>{revoking.is_multiuse ? 'No one can join with this link any more.' : 'The invitation’s link will no longer work.'}</p>
        </ConfirmDialog>
      )}
    </>
  );
};
