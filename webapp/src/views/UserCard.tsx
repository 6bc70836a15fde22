// A person's card (upstream's user card popover), opened from a sender's name: name, role, email
// where the organization lets me see it, their local time, status, the custom profile fields they
// filled in, and a way to write to them.
import { Fragment } from 'preact';
import { goTo } from '../actions';
import { ROLE_NAMES } from '../data/message-permissions';
import { presenceStatus } from '../data/people';
import { filledFields } from '../data/profile-fields';
import { me, now, people, settings } from '../store';
import { closePopover, type Anchor } from '../ui';
import { Avatar } from './Avatar';
import { PopoverFrame } from './Popover';

const localTime = (timezone: string | undefined, at: number): string | undefined => {
  if (!timezone) return undefined;
  try {
    return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZone: timezone });
  } catch {
    return undefined;
  }
};

export const UserCard = ({ userId, at }: { userId: number; at: Anchor }) => {
  const everyone = people.value;
  const user = everyone.users.get(userId);
  if (!user) return null;
  const status = everyone.status.get(userId);
  const presence = presenceStatus(everyone.presence.get(userId), now.value / 1000, everyone.offlineThreshold);
  const time = localTime(user.timezone, now.value);
  const email = user.delivery_email ?? user.email;
  return (
    <PopoverFrame at={at} role="dialog" label={user.full_name} class="user-card" id="user-card-popover">
      <div class="user_card_head">
        <Avatar name={user.full_name} url={user.avatar_url ?? null} userId={userId} />
        <div>
          <div class="user_card_name">{user.full_name}</div>
          <div class="user_card_role">{user.is_bot ? 'Bot' : (ROLE_NAMES[user.role ?? 400] ?? 'Member')}</div>
        </div>
      </div>
      <dl class="user_card_details">
        {email && (
          <>
            <dt>Email</dt>
            <dd class="user_card_email">{email}</dd>
          </>
        )}
        {time && (
          <>
            <dt>Local time</dt>
            <dd class="user_card_local_time">{time}</dd>
          </>
        )}
        <dt>Status</dt>
        <dd class="user_card_status">
          {status?.away ? 'Away' : presence === 'active' ? 'Active' : presence === 'idle' ? 'Idle' : 'Offline'}
          {status?.status_text ? ` · ${status.status_text}` : ''}
        </dd>
        {filledFields(settings.value.profileFields, user, everyone).map(({ field, text, href }) => (
          <Fragment key={field.id}>
            <dt>{field.name}</dt>
            <dd class="user_card_field" data-field-id={field.id}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {text}
                </a>
              ) : (
                text
              )}
            </dd>
          </Fragment>
        ))}
      </dl>
      <button
        type="button"
        class="user_card_send_dm"
        onClick={() => {
          closePopover();
          goTo({ kind: 'dm', userIds: [userId] });
        }}
      >
        {userId === me.value.userId ? 'View messages with yourself' : 'Send direct message'}
      </button>
    </PopoverFrame>
  );
};
