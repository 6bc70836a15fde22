// Muted users (upstream's settings section): the people I muted, each unmuted by a click
// (DELETE /json/users/me/muted_users/{id}), and muting someone else (POST the same path). The list
// follows the muted_users event.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import { me, people, userSettings } from '../../store';

export const MutedUsersSection = () => {
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState('');
  const muted = userSettings.value.mutedUsers;
  const mutedIds = new Set(muted.map((m) => m.id));
  const others = [...people.value.users.values()]
    .filter((u) => u.is_active && u.user_id !== me.value.userId && !mutedIds.has(u.user_id))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const act = (method: 'POST' | 'DELETE', id: number) => {
    setError(null);
    request(method, `users/me/muted_users/${id}`).catch((err: Error) => setError(err.message));
  };
  return (
    <>
      <h3>Muted users</h3>
      {muted.length === 0 ? (
        <p class="settings-empty">You have not muted anyone.</p>
      ) : (
        <ul class="muted-users">
          {muted.map((m) => (
            <li key={m.id} data-user-id={m.id}>
              <span>{people.value.users.get(m.id)?.full_name ?? 'Unknown user'}</span>{' '}
              <span class="muted-since">since {new Date(m.timestamp * 1000).toLocaleDateString()}</span>{' '}
              <button type="button" class="unmute" onClick={() => act('DELETE', m.id)}>
                Unmute
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="mute-user"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen !== '') act('POST', Number(chosen));
          setChosen('');
        }}
      >
        <label>
          Mute
          <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
            <option value="">Choose someone…</option>
            {others.map((u) => (
              <option key={u.user_id} value={String(u.user_id)}>
                {u.full_name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Mute</button>
      </form>
      {error && <p role="alert">{error}</p>}
    </>
  );
};
