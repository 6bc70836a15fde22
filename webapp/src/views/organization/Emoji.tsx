// The organization's custom emoji (upstream's #organization/emoji-settings): everyone sees them
// (name, image, who added it); whoever the organization's can_add_custom_emoji_group allows adds
// one (POST /json/realm/emoji/{name}, the image as a multipart file), and an administrator or the
// emoji's author deactivates it after confirming (DELETE). The list is register's realm_emoji,
// then the realm_emoji events: what shows is the server's. Its refusals (the name's rules, the
// file's size and type) show as it words them.
import { useRef, useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { RealmEmoji } from '../../api/types';
import { inGroupSetting } from '../../data/compose-data';
import { activeRealmEmoji } from '../../data/emoji';
import { userName } from '../../data/people';
import { isAdminOf } from '../../data/roles';
import { composeData, me, people, settings } from '../../store';
import { AdminTable } from './AdminTable';
import { ConfirmDialog } from './ConfirmDialog';
import { Status, type StatusText } from './Status';

const AddEmojiForm = () => {
  const [name, setName] = useState('');
  const [status, setStatus] = useState<StatusText>(null);
  const file = useRef<HTMLInputElement>(null);
  return (
    <form
      class="add-emoji-form"
      onSubmit={(e) => {
        e.preventDefault();
        setStatus(null);
        const form = new FormData();
        const chosen = file.current?.files?.[0];
        if (chosen) form.append('file', chosen, chosen.name);
        request('POST', `realm/emoji/${encodeURIComponent(name)}`, form).then(
          () => {
            setName('');
            if (file.current) file.current.value = '';
            setStatus({ text: 'Emoji added.', error: false });
          },
          (err: Error) => setStatus({ text: err.message, error: true }),
        );
      }}
    >
      <label>
        Emoji name
        <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Emoji image (PNG, GIF, JPEG or WebP)
        <input type="file" ref={file} accept="image/png,image/gif,image/jpeg,image/webp" />
      </label>
      <button type="submit">Add emoji</button>
      <Status status={status} />
    </form>
  );
};

export const EmojiSection = () => {
  const [removing, setRemoving] = useState<RealmEmoji | null>(null);
  const myId = me.value.userId;
  const admin = isAdminOf(people.value, myId);
  const mayAdd = inGroupSetting(settings.value.permissions.can_add_custom_emoji_group, composeData.value.groups, myId);
  const emoji = activeRealmEmoji(settings.value.realmEmoji).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <h3>Custom emoji</h3>
      {mayAdd ? <AddEmojiForm /> : <p class="settings-empty">You do not have permission to add custom emoji.</p>}
      <AdminTable class="emoji-table" empty="No custom emoji." columns={['Name', 'Image', 'Author', 'Actions']} rows={emoji.length}>
        {emoji.map((e) => (
          <tr key={e.id} data-emoji-name={e.name}>
            <td class="emoji-name">{e.name}</td>
            <td>
              <img class="emoji" src={e.source_url} alt={`:${e.name}:`} width={25} height={25} />
            </td>
            <td class="emoji-author">{(e.author_id && userName(people.value, e.author_id)) || 'Unknown author'}</td>
            <td>
              {(admin || e.author_id === myId) && (
                <button type="button" class="danger" aria-label={`Delete ${e.name}`} onClick={() => setRemoving(e)}>
                  Delete
                </button>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
      {removing && (
        <ConfirmDialog
          title={`Delete :${removing.name}:?`}
          confirmLabel="Delete"
          onConfirm={() => request('DELETE', `realm/emoji/${encodeURIComponent(removing.name)}`)}
          onClose={() => setRemoving(null)}
        >
          <p>It will no longer be offered in the emoji picker; messages and reactions that used it keep it.</p>
        </ConfirmDialog>
      )}
    </>
  );
};
