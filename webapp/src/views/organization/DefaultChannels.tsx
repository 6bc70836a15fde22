// The organization's default channels (upstream's #organization/default-channels-list), for
// administrators: the channels everyone who joins is subscribed to; one added from the channels I
// can see (POST /json/default_streams) or removed after confirming (DELETE). The list is register's
// realm_default_streams, then the default_streams events; the server's refusals (a private
// channel) show as it words them.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import { browsedChannels, type BrowsedChannel } from '../../data/channel-browser';
import { channels, settings } from '../../store';
import { AdminTable } from './AdminTable';
import { ConfirmDialog } from './ConfirmDialog';
import { Status, type StatusText } from './Status';

const AddDefaultChannelForm = ({ offered }: { offered: readonly BrowsedChannel[] }) => {
  const [chosen, setChosen] = useState('');
  const [status, setStatus] = useState<StatusText>(null);
  return (
    <form
      class="add-default-channel-form"
      onSubmit={(e) => {
        e.preventDefault();
        setStatus(null);
        request('POST', 'default_streams', { stream_id: Number(chosen) }).then(
          () => setChosen(''),
          (err: Error) => setStatus({ text: err.message, error: true }),
        );
      }}
    >
      <label>
        Channel to add
        <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
          <option value="" disabled>
            Choose a channel
          </option>
          {offered.map((c) => (
            <option key={c.streamId} value={String(c.streamId)}>
              #{c.name}
              {c.inviteOnly ? ' (private)' : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={chosen === ''}>
        Add channel
      </button>
      <Status status={status} />
    </form>
  );
};

export const DefaultChannelsSection = () => {
  const [removing, setRemoving] = useState<BrowsedChannel | null>(null);
  const ids = new Set(settings.value.defaultChannels);
  const all = browsedChannels(channels.value, 'all');
  const listed = all.filter((c) => ids.has(c.streamId));
  return (
    <>
      <h3>Default channels</h3>
      <p class="settings-hint">Everyone who joins the organization is subscribed to these channels.</p>
      <AddDefaultChannelForm offered={all.filter((c) => !ids.has(c.streamId))} />
      <AdminTable
        class="default-channels-table"
        empty="No default channels."
        columns={['Channel', 'Description', 'Actions']}
        rows={listed.length}
      >
        {listed.map((c) => (
          <tr key={c.streamId} data-stream-id={c.streamId}>
            <td class="channel-name">#{c.name}</td>
            <td>{c.description}</td>
            <td>
              <button type="button" class="danger" aria-label={`Remove #${c.name}`} onClick={() => setRemoving(c)}>
                Remove
              </button>
            </td>
          </tr>
        ))}
      </AdminTable>
      {removing && (
        <ConfirmDialog
          title={`Remove #${removing.name} from the default channels?`}
          confirmLabel="Remove"
          onConfirm={() => request('DELETE', 'default_streams', { stream_id: removing.streamId })}
          onClose={() => setRemoving(null)}
        >
          <p>People who join from now on will not be subscribed to it; its subscribers stay.</p>
        </ConfirmDialog>
      )}
    </>
  );
};
