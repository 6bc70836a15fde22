// A channel's permissions dialog in the channel browser (upstream's channel settings, General and
// Advanced): its privacy, who may post, subscribe or unsubscribe anyone and administer it, and its
// folder, sent to PATCH /json/streams/{id} (only what changed). The browser follows the stream
// update events; a refusal stays in the dialog as the server words it.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { Stream } from '../../api/types';
import {
  CHANNEL_PERMISSION_SETTINGS,
  chosenGroup,
  PRIVACY_CHOICES,
  privacyOf,
  privacyParams,
  roleGroupChoices,
  type ChannelGroupSettingName,
  type Privacy,
} from '../../data/channel-permissions';
import { composeData } from '../../store';
import { ConfirmDialog } from './ConfirmDialog';
import { IdOptions } from './IdOptions';

type Folder = { id: number; name: string; is_archived: boolean };

/** The organization's channel folders (GET /channel_folders), fetched when the dialog opens. */
const useFolders = (current: number | null | undefined): Folder[] => {
  const [folders, setFolders] = useState<Folder[]>([]);
  useEffect(() => {
    request<{ channel_folders: Folder[] }>('GET', 'channel_folders').then(
      (r) => setFolders(r.channel_folders.filter((f) => !f.is_archived || f.id === current)),
      () => setFolders([]),
    );
  }, []);
  return folders;
};

export const ChannelPermissionsDialog = ({ stream, onClose }: { stream: Stream; onClose: () => void }) => {
  const groups = composeData.value.groups;
  const folders = useFolders(stream.folder_id);
  const [privacy, setPrivacy] = useState<Privacy>(privacyOf(stream));
  const [chosen, setChosen] = useState<Partial<Record<ChannelGroupSettingName, number>>>({});
  const [folder, setFolder] = useState<number | null>(stream.folder_id ?? null);
  const save = () => {
    const params: Record<string, unknown> = {};
    if (privacy !== privacyOf(stream)) Object.assign(params, privacyParams(privacy));
    for (const [name, id] of Object.entries(chosen)) params[name] = { new: id };
    if (folder !== (stream.folder_id ?? null)) params.folder_id = folder;
    return request('PATCH', `streams/${stream.stream_id}`, params);
  };
  return (
    <ConfirmDialog role="dialog" title={`Permissions of #${stream.name}`} confirmLabel="Save changes" onConfirm={save} onClose={onClose}>
      <fieldset class="settings-radios channel-privacy-choice">
        <legend>Who can access the channel</legend>
        {PRIVACY_CHOICES.map((choice) => (
          <label key={choice.value}>
            <input
              type="radio"
              name="channel-privacy"
              value={choice.value}
              checked={privacy === choice.value}
              onChange={() => setPrivacy(choice.value)}
            />{' '}
            <span>
              <strong>{choice.label}</strong>
              <span class="choice-help">{choice.help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {CHANNEL_PERMISSION_SETTINGS.map(({ name, label, allowsEveryone }) => {
        const choices = roleGroupChoices(groups, allowsEveryone);
        const current = chosen[name] ?? chosenGroup(stream[name], choices);
        return (
          <label class="dialog_field" key={name}>
            {label}
            <select
              name={name}
              value={current === undefined ? '' : String(current)}
              onChange={(e) => setChosen({ ...chosen, [name]: Number(e.currentTarget.value) })}
            >
              <IdOptions items={choices} none={current === undefined ? 'A custom group (unchanged)' : undefined} />
            </select>
          </label>
        );
      })}
      <label class="dialog_field">
        Channel folder
        <select
          name="folder_id"
          value={folder === null ? '' : String(folder)}
          onChange={(e) => setFolder(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
        >
          <IdOptions items={folders.map((f) => ({ id: f.id, label: f.name }))} none="None" />
        </select>
      </label>
    </ConfirmDialog>
  );
};
