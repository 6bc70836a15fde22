// The right sidebar (upstream's buddy list): the organization's people with their presence,
// active first, then idle, then offline; a filter by name; a click opens a DM with them.
import { useState } from 'preact/hooks';
import { presenceStatus, type PresenceStatus } from '../data/people';
import { me, now, people } from '../store';
import { href } from './links';

const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
const LABEL: Record<PresenceStatus, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

export const RightSidebar = () => {
  const [filter, setFilter] = useState('');
  const everyone = people.value;
  const self = me.value.userId;
  const seconds = now.value / 1000;
  const wanted = filter.trim().toLowerCase();
  const users = [...everyone.users.values()]
    .filter((u) => u.is_active && !u.is_bot && (wanted === '' || u.full_name.toLowerCase().includes(wanted)))
    .map((u) => ({
      user: u,
      status: u.user_id === self ? 'active' : presenceStatus(everyone.presence.get(u.user_id), seconds, everyone.offlineThreshold),
    }))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.user.full_name.localeCompare(b.user.full_name));
  return (
    <aside id="right-sidebar" class="right-sidebar" aria-label="People">
      <h2 class="sidebar-heading">People</h2>
      <input
        class="user-filter"
        type="search"
        placeholder="Filter people"
        aria-label="Filter people"
        value={filter}
        onInput={(e) => setFilter(e.currentTarget.value)}
      />
      <ul id="buddy-list-users-matching-view" class="buddy-list">
        {users.map(({ user, status }) => {
          const text = everyone.status.get(user.user_id)?.status_text;
          return (
            <li key={user.user_id} class={`user_sidebar_entry user_${status}`} data-user-id={user.user_id}>
              <a href={href({ kind: 'dm', userIds: [user.user_id] })} title={`${user.full_name} (${LABEL[status]})`}>
                <span class={`user_circle user_circle_${status}`} aria-label={LABEL[status]} />
                <span class="user-name">
                  {user.full_name}
                  {user.user_id === self && <span class="my_user_status"> (you)</span>}
                </span>
                {text && <span class="status-text">{text}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </aside>
  );
};
