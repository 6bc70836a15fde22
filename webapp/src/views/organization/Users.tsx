// The users of the organization (upstream's #organization/users and #organization/deactivated):
// everyone sees who is active and their role; an administrator changes a role (PATCH
// /json/users/{id}) and deactivates or reactivates someone (DELETE /json/users/{id}, POST
// /json/users/{id}/reactivate) after confirming. The lists follow the realm_user events; the
// server's refusals ("Must be an organization owner", the only owner) are shown as it words them.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { User } from '../../api/types';
import { assignableRoles, isAdminOf, roleLabel, usersListed } from '../../data/roles';
import { me, people } from '../../store';
import { ConfirmDialog } from './ConfirmDialog';

const changeRole = (userId: number, role: number) => request('PATCH', `users/${userId}`, { role });

const RoleSelect = ({ user, onError }: { user: User; onError: (text: string) => void }) => {
  const options = assignableRoles(people.value, me.value.userId);
  const role = user.role ?? 400;
  const shown = options.some((o) => o.value === role) ? options : [{ value: role, label: roleLabel(role) }, ...options];
  return (
    <select
      class="user-role"
      aria-label={`Role of ${user.full_name}`}
      value={String(role)}
      onChange={(e) => {
        const select = e.currentTarget;
        changeRole(user.user_id, Number(select.value)).catch((err: Error) => {
          // What shows is the server's role: the event of an accepted change, or no change.
          select.value = String(role);
          onError(err.message);
        });
      }}
    >
      {shown.map((o) => (
        <option key={o.value} value={String(o.value)}>
          {o.label}
        </option>
      ))}
    </select>
  );
};

type Pending = { user: User; reactivate: boolean };

const UsersTable = ({ active }: { active: boolean }) => {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const admin = isAdminOf(people.value, me.value.userId);
  const users = usersListed(people.value, active);
  const report = (text: string) => setError(text);
  return (
    <>
      {error && (
        <p class="settings-error" role="alert">
          {error}
        </p>
      )}
      {users.length === 0 ? (
        <p class="settings-empty">{active ? 'No users.' : 'No one is deactivated.'}</p>
      ) : (
        <table class="admin-table users-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.user_id} data-user-id={u.user_id}>
                <td class="user-name">{u.full_name}</td>
                <td class="user-email">{u.delivery_email ?? u.email}</td>
                <td>{admin && active ? <RoleSelect user={u} onError={report} /> : roleLabel(u.role)}</td>
                {admin && (
                  <td>
                    <button
                      type="button"
                      class={active ? 'deactivate danger' : 'reactivate'}
                      onClick={() => {
                        setError(null);
                        setPending({ user: u, reactivate: !active });
                      }}
                    >
                      {active ? 'Deactivate' : 'Reactivate'}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pending && (
        <ConfirmDialog
          title={`${pending.reactivate ? 'Reactivate' : 'Deactivate'} ${pending.user.full_name}?`}
          confirmLabel={pending.reactivate ? 'Reactivate' : 'Deactivate'}
          onConfirm={() =>
            pending.reactivate
              ? request('POST', `users/${pending.user.user_id}/reactivate`)
              : request('DELETE', `users/${pending.user.user_id}`)
          }
          onClose={() => setPending(null)}
        >
          {pending.reactivate ? (
            <p>{pending.user.full_name} will be able to sign in again, with the channels and groups they had.</p>
          ) : (
            <p>
              {pending.user.full_name} ({pending.user.delivery_email ?? pending.user.email}) will be signed out at once and unable to sign
              in or use the API; their bots are deactivated too.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
};

export const UsersSection = () => (
  <>
    <h3>Users</h3>
    <UsersTable active />
  </>
);

export const DeactivatedUsersSection = () => (
  <>
    <h3>Deactivated users</h3>
    <UsersTable active={false} />
  </>
);
