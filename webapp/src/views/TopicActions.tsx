// A topic's menu (upstream's topic popover, from the recipient bar): mark it read, follow, mute
// or unmute it, resolve or unresolve it, and rename or move it to another channel in a dialog with
// upstream's choice of notices in the old and the new place.
import { useState } from 'preact/hooks';
import { goTo } from '../actions';
import { ApiError } from '../api/client';
import { sortedSubscriptions } from '../data/channels';
import { sameNarrow } from '../data/narrow';
import { topicKey } from '../data/topic-key';
import { isResolved, toggledResolution } from '../data/topics';
import { markTopicRead, moveTopic, setTopicPolicy } from '../message-actions';
import { channels, narrow } from '../store';
import { closePopover, popover, type Anchor } from '../ui';
import { CloseButton, DialogFrame, ErrorLine, MenuItem, PopoverFrame } from './Popover';

type TopicProps = { streamId: number; topic: string; messageId: number };

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

/** After a move, a view of the old topic follows it to where it went. */
const follow = (from: { streamId: number; topic: string }, to: { streamId: number; topic: string }): void => {
  if (sameNarrow(narrow.peek(), { kind: 'channel', ...from })) goTo({ kind: 'channel', ...to });
};

export const TopicActions = ({ streamId, topic, messageId, at }: TopicProps & { at: Anchor }) => {
  const all = channels.value;
  const policy = all.topicPolicies.get(topicKey(streamId, topic)) ?? 0;
  const channelMuted = all.subs.get(streamId)?.is_muted === true;
  const muted = policy === MUTED || (channelMuted && policy !== UNMUTED && policy !== FOLLOWED);
  const set = (p: 0 | 1 | 2 | 3) => void setTopicPolicy(streamId, topic, p).catch(() => undefined);
  const resolved = isResolved(topic);
  return (
    <PopoverFrame at={at} role="menu" label="Topic actions" class="topic-actions-menu" id="topic-actions-menu">
      <MenuItem label="Mark all messages as read" onSelect={() => void markTopicRead(streamId, topic).catch(() => undefined)} />
      {policy === FOLLOWED ? (
        <MenuItem label="Unfollow topic" onSelect={() => set(0)} />
      ) : (
        <MenuItem label="Follow topic" onSelect={() => set(FOLLOWED)} />
      )}
      {muted ? (
        <MenuItem label="Unmute topic" onSelect={() => set(channelMuted ? UNMUTED : 0)} />
      ) : (
        <MenuItem label="Mute topic" onSelect={() => set(MUTED)} />
      )}
      <MenuItem
        label={resolved ? 'Mark as unresolved' : 'Mark as resolved'}
        onSelect={() => {
          const renamed = toggledResolution(topic);
          moveTopic(messageId, { topic: renamed, notifyOld: false, notifyNew: true }).then(
            () => follow({ streamId, topic }, { streamId, topic: renamed }),
            () => undefined,
          );
        }}
      />
      <MenuItem label="Move or rename topic…" onSelect={() => (popover.value = { kind: 'move-topic', streamId, topic, messageId })} />
    </PopoverFrame>
  );
};

const Check = ({ name, label, value, set }: { name: string; label: string; value: boolean; set: (on: boolean) => void }) => (
  <label class="dialog_check">
    <input type="checkbox" name={name} checked={value} onChange={(e) => set(e.currentTarget.checked)} />
    {label}
  </label>
);

export const MoveTopicDialog = ({ streamId, topic, messageId }: TopicProps) => {
  const [name, setName] = useState(topic);
  const [target, setTarget] = useState(streamId);
  const [notifyOld, setNotifyOld] = useState(true);
  const [notifyNew, setNotifyNew] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const subs = sortedSubscriptions(channels.value);
  const submit = () => {
    const to = { streamId: target, topic: name.trim() };
    if (to.streamId === streamId && to.topic === topic) return closePopover();
    setBusy(true);
    moveTopic(messageId, {
      topic: to.topic === topic ? undefined : to.topic,
      streamId: to.streamId === streamId ? undefined : to.streamId,
      notifyOld,
      notifyNew,
    }).then(
      () => {
        closePopover();
        follow({ streamId, topic }, to);
      },
      (e: unknown) => {
        setError(e instanceof ApiError ? e.message : 'The server could not be reached.');
        setBusy(false);
      },
    );
  };
  return (
    <DialogFrame label="Move topic" class="move_topic" id="move-topic-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label class="dialog_field">
          Channel
          <select id="move_topic_channel" value={String(target)} onChange={(e) => setTarget(Number(e.currentTarget.value))}>
            {subs.map((sub) => (
              <option key={sub.stream_id} value={String(sub.stream_id)}>
                #{sub.name}
              </option>
            ))}
          </select>
        </label>
        <label class="dialog_field">
          Topic
          <input id="move_topic_name" type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <Check name="send_notification_to_old_thread" label="Send automated notice to old topic" value={notifyOld} set={setNotifyOld} />
        <Check name="send_notification_to_new_thread" label="Send automated notice to new topic" value={notifyNew} set={setNotifyNew} />
        <ErrorLine error={error} />
        <div class="dialog_buttons">
          <CloseButton label="Cancel" />
          <button type="submit" class="dialog_submit" disabled={busy}>
            Confirm
          </button>
        </div>
      </form>
    </DialogFrame>
  );
};
