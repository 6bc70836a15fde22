// The organization's profile and permissions (upstream's #organization/organization-profile and
// #organization/organization-permissions): an administrator saves a new name and description and
// chooses who may create channels, invite and add custom emoji (PATCH /json/realm); a member sees
// them read-only. What shows is the server's, from register and then the realm event of a change.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { GroupSetting } from '../../api/types';
import { systemGroupChoices } from '../../data/channel-permissions';
import { isAdminOf } from '../../data/roles';
import type { Permission } from '../../data/settings';
import { composeData, me, people, realm, settings } from '../../store';
import { IdOptions } from './IdOptions';
import { Status, type StatusText } from './Status';

const amAdmin = () => isAdminOf(people.value, me.value.userId);

export const OrganizationProfileSection = () => {
  const serverName = realm.value.name;
  const serverDescription = settings.value.description;
  const [name, setName] = useState(serverName);
  const [description, setDescription] = useState(serverDescription);
  const [status, setStatus] = useState<StatusText>(null);
  // A change (mine or another administrator's) comes back as an event: the form shows it.
  useEffect(() => setName(serverName), [serverName]);
  useEffect(() => setDescription(serverDescription), [serverDescription]);
  if (!amAdmin())
    return (
      <>
        <h3>Organization profile</h3>
        <dl class="organization-profile">
          <dt>Organization name</dt>
          <dd class="organization-name">{serverName}</dd>
          <dt>Organization description</dt>
          <dd class="organization-description">{serverDescription || <em>No description.</em>}</dd>
        </dl>
      </>
    );
  return (
    <>
      <h3>Organization profile</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setStatus(null);
          request('PATCH', 'realm', {
            name: name !== serverName ? name : undefined,
            description: description !== serverDescription ? description : undefined,
          }).then(
            () => setStatus({ text: 'Saved.', error: false }),
            (err: Error) => setStatus({ text: err.message, error: true }),
          );
        }}
      >
        <label>
          Organization name
          <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Organization description
          <textarea rows={4} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <button type="submit">Save changes</button>
      </form>
      <Status status={status} />
    </>
  );
};

/** The system groups offered for a permission, by upstream's names for them. */
const CHOICES = [
  { group: 'role:administrators', label: 'Administrators' },
  { group: 'role:moderators', label: 'Administrators and moderators' },
  { group: 'role:members', label: 'All members' },
];

const PERMISSION_LABELS: Record<Permission, string> = {
  can_create_public_channel_group: 'Who can create public channels',
  can_invite_users_group: 'Who can invite users to this organization',
  can_add_custom_emoji_group: 'Who can add custom emoji',
};

const PermissionSelect = ({ name, admin }: { name: Permission; admin: boolean }) => {
  const [error, setError] = useState<string | null>(null);
  const groups = composeData.value.groups;
  const choices = systemGroupChoices(groups, CHOICES);
  const value: GroupSetting | undefined = settings.value.permissions[name];
  const current = typeof value === 'number' ? value : undefined;
  const known = choices.some((c) => c.id === current);
  return (
    <div class="permission-setting">
      <label>
        {PERMISSION_LABELS[name]}
        <select
          name={name}
          disabled={!admin}
          value={known ? String(current) : ''}
          onChange={(e) => {
            const select = e.currentTarget;
            setError(null);
            request('PATCH', 'realm', { [name]: { new: Number(select.value), old: value } }).catch((err: Error) => {
              select.value = known ? String(current) : '';
              setError(err.message);
            });
          }}
        >
          <IdOptions items={choices} none={known ? undefined : 'Custom'} />
        </select>
      </label>
      <Status status={error ? { text: error, error: true } : null} />
    </div>
  );
};

export const OrganizationPermissionsSection = () => {
  const admin = amAdmin();
  return (
    <>
      <h3>Organization permissions</h3>
      {!admin && <p class="settings-empty">Only administrators can change these.</p>}
      <form class="permissions" onSubmit={(e) => e.preventDefault()}>
        <PermissionSelect name="can_create_public_channel_group" admin={admin} />
        <PermissionSelect name="can_invite_users_group" admin={admin} />
        <PermissionSelect name="can_add_custom_emoji_group" admin={admin} />
      </form>
    </>
  );
};
