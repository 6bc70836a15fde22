// The compose box (upstream's form#send_message_form): to a channel and topic, or to people; the
// recipient follows the view; Enter sends, Shift+Enter starts a new line; a preview through the
// server's renderer; typing notifications sent while typing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { renderPreview, sendMessage } from '../actions';
import { sortedSubscriptions } from '../data/channels';
import { dmPeers, type Narrow } from '../data/narrow';
import type { Destination } from '../data/outbox';
import type { People } from '../data/people';
import { channels, me, narrow, people } from '../store';
import { keystroke, stopTyping } from '../typing-status';

/** Recipients as typed (emails or full names, comma-separated) to user ids; the unknown ones by name. */
const resolveRecipients = (text: string, everyone: People): { ids: number[]; unknown: string[] } => {
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const lower = part.toLowerCase();
    const user = [...everyone.users.values()].find((u) => u.email.toLowerCase() === lower || u.full_name.toLowerCase() === lower);
    if (user) ids.push(user.user_id);
    else unknown.push(part);
  }
  return { ids, unknown };
};

const emailsOf = (ids: number[], everyone: People): string => ids.map((id) => everyone.users.get(id)?.email ?? '').join(', ');

export const Compose = () => {
  const view: Narrow = narrow.value;
  const self = me.value.userId;
  const subs = sortedSubscriptions(channels.value);
  const [mode, setMode] = useState<'stream' | 'dm'>('stream');
  const [streamId, setStreamId] = useState<number | undefined>(undefined);
  const [topic, setTopic] = useState('');
  const [recipients, setRecipients] = useState('');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);

  // The recipient follows the view.
  useEffect(() => {
    if (view.kind === 'channel') {
      setMode('stream');
      setStreamId(view.streamId);
      if (view.topic !== undefined) setTopic(view.topic);
    } else if (view.kind === 'dm') {
      setMode('dm');
      setRecipients(emailsOf(dmPeers(view.userIds, self), people.peek()));
    }
  }, [JSON.stringify(view)]);

  const chosenStream = streamId ?? subs[0]?.stream_id;

  const destination = (): Destination | string => {
    if (mode === 'stream') {
      if (chosenStream === undefined) return 'Choose a channel.';
      return { kind: 'stream', streamId: chosenStream, topic: topic.trim() };
    }
    const { ids, unknown } = resolveRecipients(recipients, people.peek());
    if (unknown.length > 0) return `Unknown recipient: ${unknown.join(', ')}`;
    if (ids.length === 0) return 'Add at least one recipient.';
    return { kind: 'dm', userIds: ids };
  };

  const send = () => {
    const to = destination();
    if (typeof to === 'string') {
      setError(to);
      return;
    }
    if (content.trim() === '') return;
    setError(null);
    setPreview(null);
    stopTyping();
    void sendMessage(to, content);
    setContent('');
    textarea.current?.focus();
  };

  const onInput = (value: string) => {
    setContent(value);
    const to = destination();
    keystroke(typeof to === 'string' ? undefined : to);
  };

  const togglePreview = () => {
    if (preview !== null) {
      setPreview(null);
      return;
    }
    if (content.trim() === '') return;
    renderPreview(content).then(setPreview, (e: Error) => setError(e.message));
  };

  return (
    <form
      id="send_message_form"
      class="compose"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div class="compose_recipient">
        <div class="compose_mode" role="tablist">
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'stream'}
            class={mode === 'stream' ? 'selected' : ''}
            onClick={() => setMode('stream')}
          >
            Channel
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={mode === 'dm'}
            class={mode === 'dm' ? 'selected' : ''}
            onClick={() => setMode('dm')}
          >
            Direct message
          </button>
        </div>
        <div class="stream_recipient" hidden={mode !== 'stream'}>
          <select
            id="compose_select_recipient"
            aria-label="Channel"
            value={chosenStream === undefined ? '' : String(chosenStream)}
            onChange={(e) => setStreamId(Number(e.currentTarget.value))}
          >
            {subs.map((sub) => (
              <option key={sub.stream_id} value={String(sub.stream_id)}>
                #{sub.name}
              </option>
            ))}
          </select>
          <span class="recipient_bar_sep">›</span>
          <input
            id="stream_message_recipient_topic"
            type="text"
            placeholder="Topic"
            aria-label="Topic"
            value={topic}
            onInput={(e) => setTopic(e.currentTarget.value)}
          />
        </div>
        <div class="dm_recipient" hidden={mode !== 'dm'}>
          <input
            id="private_message_recipient"
            type="text"
            placeholder="Emails or names, separated by commas"
            aria-label="Direct message recipients"
            value={recipients}
            onInput={(e) => setRecipients(e.currentTarget.value)}
          />
        </div>
      </div>
      {preview !== null ? (
        <div class="preview_content rendered_markdown" id="compose-preview" dangerouslySetInnerHTML={{ __html: preview }} />
      ) : (
        <textarea
          id="compose-textarea"
          ref={textarea}
          rows={3}
          placeholder={mode === 'stream' ? 'Message the channel' : 'Message these people'}
          aria-label="Message"
          value={content}
          onInput={(e) => onInput(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
      )}
      {error && (
        <div class="compose_error" role="alert">
          {error}
        </div>
      )}
      <div class="compose_controls">
        <span class="compose_hint">Enter to send, Shift+Enter for a new line</span>
        <button type="button" class="preview_button" onClick={togglePreview}>
          {preview === null ? 'Preview' : 'Edit'}
        </button>
        <button type="submit" id="compose-send-button">
          Send
        </button>
      </div>
    </form>
  );
};
