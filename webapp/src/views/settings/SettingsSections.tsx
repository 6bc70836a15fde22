// The settings sections that are switches and one form: account and privacy (password, signing
// out of my other sessions, the API key page), notifications, preferences. A switch saves at once (PATCH /json/settings) and shows
// what the user_settings event brings back.
import { useState } from 'preact/hooks';
import { ApiError, csrfToken, request } from '../../api/client';
import { me, userSettings } from '../../store';
import { ConfirmDialog } from '../organization/ConfirmDialog';

const save = (name: string, value: boolean | number): Promise<unknown> => request('PATCH', 'settings', { [name]: value });

const Status = ({ text }: { text: string | null }) =>
  text ? (
    <p class="settings-status" role="status">
      {text}
    </p>
  ) : null;

const Toggle = ({ name, label }: { name: string; label: string }) => {
  const [error, setError] = useState<string | null>(null);
  const value = userSettings.value.values[name] === true;
  return (
    <div class="settings-toggle">
      <label>
        <input
          type="checkbox"
          name={name}
          checked={value}
          onChange={(e) => {
            setError(null);
            save(name, e.currentTarget.checked).catch((err: Error) => setError(err.message));
          }}
        />{' '}
        {label}
      </label>
      <Status text={error} />
    </div>
  );
};

export const NotificationsSection = () => (
  <>
    <h3>Email notifications</h3>
    <Toggle name="enable_offline_email_notifications" label="Email notifications of direct messages and mentions when I am away" />
    <Toggle name="message_content_in_email_notifications" label="Include the message's content in email notifications" />
    <Toggle name="enable_digest_emails" label="Send digest emails when I am away" />
    <Toggle name="enable_login_emails" label="Send an email when my account signs in" />
    <h3>Mobile push notifications</h3>
    <Toggle name="enable_offline_push_notifications" label="Mobile notifications when I am away" />
    <Toggle name="enable_online_push_notifications" label="Mobile notifications even when I am online" />
  </>
);

const THEMES = [
  { value: 1, label: 'As the system' },
  { value: 3, label: 'Light' },
  { value: 2, label: 'Dark' },
];

export const PreferencesSection = () => {
  const [error, setError] = useState<string | null>(null);
  const scheme = userSettings.value.values.color_scheme ?? 1;
  return (
    <>
      <h3>Theme</h3>
      <fieldset class="settings-radios">
        <legend>Color scheme</legend>
        {THEMES.map((t) => (
          <label key={t.value}>
            <input
              type="radio"
              name="color_scheme"
              value={String(t.value)}
              checked={scheme === t.value}
              onChange={() => void save('color_scheme', t.value).catch((err: Error) => setError(err.message))}
            />{' '}
            {t.label}
          </label>
        ))}
      </fieldset>
      <Status text={error} />
      <h3>Time</h3>
      <Toggle name="twenty_four_hour_time" label="Show times in 24 hour format" />
    </>
  );
};

/**
 * Signing out every other browser of mine (ours: POST /json/users/me/sign_out_other_sessions; this
 * one stays signed in), after confirming.
 */
const OtherSessions = () => {
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <h3>Sessions</h3>
      <p>Signed in on another computer or browser you no longer use? Sign out everywhere but here.</p>
      <button
        type="button"
        onClick={() => {
          setStatus(null);
          setConfirming(true);
        }}
      >
        Sign out of other sessions
      </button>
      <Status text={status} />
      {confirming && (
        <ConfirmDialog
          title="Sign out of other sessions?"
          confirmLabel="Sign out"
          onConfirm={() =>
            request<{ sessions_ended: number }>('POST', 'users/me/sign_out_other_sessions').then((answer) =>
              setStatus(
                answer.sessions_ended === 1 ? 'Signed out of 1 other session.' : `Signed out of ${answer.sessions_ended} other sessions.`,
              ),
            )
          }
          onClose={() => setConfirming(false)}
        >
          <p>Every other browser signed in as you will be signed out at its next request; this one stays signed in.</p>
        </ConfirmDialog>
      )}
    </>
  );
};

export const AccountSection = () => {
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <h3>Account</h3>
      <p>
        Email: <strong class="my-email">{me.value.email}</strong>
      </p>
      <h3>Password</h3>
      <form
        class="change-password"
        onSubmit={(e) => {
          e.preventDefault();
          setStatus(null);
          request('PATCH', 'settings', { old_password: oldPassword, new_password: newPassword }).then(
            () => {
              setOld('');
              setNew('');
              setStatus('Your password was changed.');
            },
            (err: Error) => setStatus(err instanceof ApiError ? err.message : 'The server could not be reached.'),
          );
        }}
      >
        <label>
          Current password
          <input
            type="password"
            autocomplete="current-password"
            value={oldPassword}
            onInput={(e) => setOld(e.currentTarget.value)}
            required
          />
        </label>
        <label>
          New password
          <input type="password" autocomplete="new-password" value={newPassword} onInput={(e) => setNew(e.currentTarget.value)} required />
        </label>
        <button type="submit">Change password</button>
      </form>
      <Status text={status} />
      <OtherSessions />
      <h3>API key</h3>
      <p>Your API key lets programs and other clients act as you. Enter your password to see it and your zuliprc.</p>
      <form class="api-key-form" method="post" action="/accounts/api_key/">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken()} />
        <label>
          Password
          <input type="password" name="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Show API key</button>
      </form>
    </>
  );
};
