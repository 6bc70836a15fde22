// The profile section: my name (PATCH /json/settings), my avatar (upload a new one, POST /json/users/me/avatar, or go back to the
// Gravatar, DELETE) and the organization's custom profile fields with my values (PATCH
// /json/users/me/profile_data; a field emptied is removed, DELETE). Read from GET /json/users/me
// and GET /json/realm/profile_fields when the section opens.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { ProfileField as Field } from '../../api/types';
import { choicesOf, FIELD_TYPE } from '../../data/profile-fields';
import { me } from '../../store';
import { Avatar } from '../Avatar';

type Own = { avatar_url: string | null; profile_data?: Record<string, { value: string }> };

const uploadAvatar = (file: File): Promise<unknown> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return request('POST', 'users/me/avatar', form);
};

/** My name: saved through PATCH /json/settings (upstream's full_name), which refuses it where the organization disables name changes. */
const NameForm = ({ current, save }: { current: string; save: (name: string) => void }) => {
  const [name, setName] = useState(current);
  return (
    <form
      class="full-name-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim() !== current) save(name.trim());
      }}
    >
      <label>
        <span class="field-name">Name</span>
        <input type="text" name="full_name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <button type="submit">Change name</button>
    </form>
  );
};

export const ProfileSection = () => {
  const [fields, setFields] = useState<Field[]>([]);
  const [own, setOwn] = useState<Own | null>(null);
  const [values, setValues] = useState<Record<number, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const load = () =>
    Promise.all([request<{ custom_fields: Field[] }>('GET', 'realm/profile_fields'), request<Own>('GET', 'users/me')]).then(
      ([answer, mine]) => {
        setFields(answer.custom_fields);
        setOwn(mine);
        setValues(Object.fromEntries(Object.entries(mine.profile_data ?? {}).map(([id, v]) => [Number(id), v.value])));
      },
      (err: Error) => setStatus(err.message),
    );
  useEffect(() => void load(), []);
  const done = (text: string) => () => {
    setStatus(text);
    void load();
  };
  const failed = (err: Error) => setStatus(err.message);

  const saveFields = () => {
    const before = own?.profile_data ?? {};
    const changed = fields.filter((f) => (values[f.id] ?? '') !== (before[f.id]?.value ?? ''));
    const set = changed.filter((f) => (values[f.id] ?? '').trim() !== '').map((f) => ({ id: f.id, value: values[f.id]!.trim() }));
    const removed = changed.filter((f) => (values[f.id] ?? '').trim() === '').map((f) => f.id);
    Promise.all([
      set.length > 0 ? request('PATCH', 'users/me/profile_data', { data: set }) : undefined,
      removed.length > 0 ? request('DELETE', 'users/me/profile_data', { data: removed }) : undefined,
    ]).then(done('Your profile was saved.'), failed);
  };

  const saveName = (name: string) => {
    // The new name comes back in my realm_user event (the heading follows it); the server's refusal is shown as it is.
    request('PATCH', 'settings', { full_name: name }).then(() => setStatus('Your name was changed.'), failed);
  };

  return (
    <>
      <h3>{me.value.fullName}</h3>
      <NameForm key={me.value.fullName} current={me.value.fullName} save={saveName} />
      <div class="avatar-settings">
        {own && <Avatar name={me.value.fullName} url={own.avatar_url} userId={me.value.userId} size={80} />}
        <label class="avatar-upload">
          Upload a new avatar
          <input
            type="file"
            accept="image/*"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) uploadAvatar(file).then(done('Your avatar was changed.'), failed);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <button
          type="button"
          class="delete-avatar"
          onClick={() => void request('DELETE', 'users/me/avatar').then(done('Your avatar was removed.'), failed)}
        >
          Delete avatar
        </button>
      </div>
      {fields.length > 0 && (
        <form
          class="profile-fields"
          onSubmit={(e) => {
            e.preventDefault();
            saveFields();
          }}
        >
          {fields.map((field) => {
            const value = values[field.id] ?? '';
            const set = (v: string) => setValues((all) => ({ ...all, [field.id]: v }));
            return (
              <label key={field.id} class="custom_user_field" data-field-id={field.id}>
                <span class="field-name">{field.name}</span>
                {field.type === FIELD_TYPE.select ? (
                  <select value={value} onChange={(e) => set(e.currentTarget.value)}>
                    <option value="">—</option>
                    {choicesOf(field).map(([key, text]) => (
                      <option key={key} value={key}>
                        {text}
                      </option>
                    ))}
                  </select>
                ) : field.type === FIELD_TYPE.longText ? (
                  <textarea value={value} placeholder={field.hint} onInput={(e) => set(e.currentTarget.value)} />
                ) : field.type === FIELD_TYPE.date ? (
                  <input type="date" value={value} onInput={(e) => set(e.currentTarget.value)} />
                ) : (
                  <input
                    type="text"
                    inputMode={field.type === FIELD_TYPE.link ? 'url' : 'text'}
                    value={value}
                    placeholder={field.hint}
                    onInput={(e) => set(e.currentTarget.value)}
                  />
                )}
              </label>
            );
          })}
          <button type="submit">Save profile</button>
        </form>
      )}
      {status && (
        <p class="settings-status" role="status">
          {status}
        </p>
      )}
    </>
  );
};
