// The channel browser (upstream's #channels overlay): the channels I am subscribed to and all I can
// see, with Subscribe and Unsubscribe (POST and DELETE /json/users/me/subscriptions), a form that
// creates a channel (the same POST, with a description and its privacy); and for administrators a
// channel's new name and description (PATCH /json/streams/{id}) and archiving it (DELETE, after
// confirming), and its permissions (ChannelPermissions.tsx). The lists follow the stream and subscription events; refusals show as the server words them.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import { browsedChannels, type BrowsedChannel } from '../../data/channel-browser';
import { canAdministerChannel } from '../../data/channel-permissions';
import { isAdminOf } from '../../data/roles';
import { channels, composeData, me, people } from '../../store';
import { ChannelPermissionsDialog } from './ChannelPermissions';
import { ConfirmDialog } from './ConfirmDialog';

const subscribe = (name: string) => request('POST', 'users/me/subscriptions', { subscriptions: [{ name }] });
const unsubscribe = (name: string) => request('DELETE', 'users/me/subscriptions', { subscriptions: [name] });

const Lock = ({ on }: { on: boolean }) => (on ? <span class="channel-privacy">(private)</span> : null);

/** The dialog that renames a channel or changes its description; only what changed is sent. */
const EditChannelDialog = ({ channel, onClose }: { channel: BrowsedChannel; onClose: () => void }) => {
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const save = () =>
    request('PATCH', `streams/${channel.streamId}`, {
      new_name: name !== channel.name ? name : undefined,
      description: description !== channel.description ? description : undefined,
    });
  return (
    <ConfirmDialog role="dialog" title={`Edit #${channel.name}`} confirmLabel="Save changes" onConfirm={save} onClose={onClose}>
      <label class="dialog_field">
        Channel name
        <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label class="dialog_field">
        Description
        <textarea rows={3} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
    </ConfirmDialog>
  );
};

type Pending = { channel: BrowsedChannel; kind: 'edit' | 'archive' | 'permissions' };

const ChannelList = ({ which }: { which: 'subscribed' | 'all' }) => {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const orgAdmin = isAdminOf(people.value, me.value.userId);
  const streamOf = (id: number) => channels.value.streams.get(id);
  // As the server: organization administrators, and those in the channel's can_administer_channel_group.
  const mayAdminister = (id: number) => {
    const stream = streamOf(id);
    return !!stream && canAdministerChannel(stream, composeData.value.groups, me.value.userId, orgAdmin);
  };
  const list = browsedChannels(channels.value, which);
  const act = (action: Promise<unknown>) => {
    setError(null);
    action.catch((err: Error) => setError(err.message));
  };
  return (
    <>
      {error && (
        <p class="settings-error" role="alert">
          {error}
        </p>
      )}
      {list.length === 0 ? (
        <p class="settings-empty">{which === 'subscribed' ? 'You are not subscribed to any channel.' : 'No channels.'}</p>
      ) : (
        <ul class="channel-browser">
          {list.map((c) => (
            <li key={c.streamId} data-stream-id={c.streamId}>
              <div class="channel-info">
                <span class="channel-name">
                  #{c.name} <Lock on={c.inviteOnly} />
                </span>
                {c.description && <span class="channel-description">{c.description}</span>}
              </div>
              <div class="channel-controls">
                {c.subscribed ? (
                  <button type="button" class="unsubscribe" onClick={() => act(unsubscribe(c.name))}>
                    Unsubscribe
                  </button>
                ) : (
                  <button type="button" class="subscribe" onClick={() => act(subscribe(c.name))}>
                    Subscribe
                  </button>
                )}
                {mayAdminister(c.streamId) && (
                  <>
                    <button type="button" class="edit-channel" onClick={() => setPending({ channel: c, kind: 'edit' })}>
                      Edit
                    </button>
                    <button type="button" class="channel-permissions" onClick={() => setPending({ channel: c, kind: 'permissions' })}>
                      Permissions
                    </button>
                    <button type="button" class="archive-channel danger" onClick={() => setPending({ channel: c, kind: 'archive' })}>
                      Archive
                    </button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {pending?.kind === 'edit' && <EditChannelDialog channel={pending.channel} onClose={() => setPending(null)} />}
      {pending?.kind === 'permissions' && streamOf(pending.channel.streamId) && (
        <ChannelPermissionsDialog stream={streamOf(pending.channel.streamId)!} onClose={() => setPending(null)} />
      )}
      {pending?.kind === 'archive' && (
        <ConfirmDialog
          title={`Archive #${pending.channel.name}?`}
          confirmLabel="Archive"
          onConfirm={() => request('DELETE', `streams/${pending.channel.streamId}`)}
          onClose={() => setPending(null)}
        >
          <p>The channel leaves everyone’s sidebar and no one can send to it; its messages are kept.</p>
        </ConfirmDialog>
      )}
    </>
  );
};

export const SubscribedChannelsSection = () => (
  <>
    <h3>Subscribed channels</h3>
    <ChannelList which="subscribed" />
  </>
);

export const AllChannelsSection = () => (
  <>
    <h3>All channels</h3>
    <ChannelList which="all" />
  </>
);

/** Creates a channel I am subscribed to (upstream's #channels/new), then shows it in my list. */
export const NewChannelSection = () => {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<'public' | 'private'>('public');
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  return (
    <>
      <h3>Create a channel</h3>
      <form
        class="new-channel"
        onSubmit={(e) => {
          e.preventDefault();
          setStatus(null);
          const created = name.trim();
          request('POST', 'users/me/subscriptions', {
            subscriptions: [{ name: created, description }],
            invite_only: privacy === 'private',
          }).then(
            () => {
              setStatus({ text: `#${created} was created.`, error: false });
              setName('');
              setDescription('');
            },
            (err: Error) => setStatus({ text: err.message, error: true }),
          );
        }}
      >
        <label>
          Channel name
          <input type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <textarea rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <fieldset class="settings-radios">
          <legend>Who can access the channel</legend>
          <label>
            <input type="radio" name="privacy" value="public" checked={privacy === 'public'} onChange={() => setPrivacy('public')} />{' '}
            Public: anyone in the organization can join
          </label>
          <label>
            <input type="radio" name="privacy" value="private" checked={privacy === 'private'} onChange={() => setPrivacy('private')} />{' '}
            Private: only people added to it
          </label>
        </fieldset>
        <button type="submit">Create</button>
      </form>
      {status && (
        <p class={status.error ? 'settings-error' : 'settings-status'} role={status.error ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
    </>
  );
};
