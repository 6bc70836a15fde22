// The compose box (upstream's form#send_message_form): to a channel and topic, or to people; the
// recipient follows the view; Enter sends, Shift+Enter starts a new line; a preview through the
// server's renderer; typing notifications sent while typing; the draft kept on the server and put
// back on returning to the conversation; the message area's typeahead and uploads
// (ComposeTextarea.tsx) and the topic's typeahead (TopicInput.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { renderPreview, sendMessage } from '../actions';
import { sortedSubscriptions } from '../data/channels';
import { draftFor } from '../data/compose-data';
import { DraftSaver, draftTarget } from '../drafts';
import { dmPeers, type Narrow } from '../data/narrow';
import type { Destination } from '../data/outbox';
import type { People } from '../data/people';
import { channels, composeData, me, narrow, people } from '../store';
import { keystroke, stopTyping } from '../typing-status';
import { ComposeTextarea } from './ComposeTextarea';
import { TopicInput } from './TopicInput';

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
  const drafts = useRef(new DraftSaver());

  // The recipient follows the view, and the view's draft comes back.
  useEffect(() => {
    let draft;
    if (view.kind === 'channel') {
      setMode('stream');
      setStreamId(view.streamId);
      if (view.topic !== undefined) setTopic(view.topic);
      draft = draftFor(composeData.peek(), 'stream', [view.streamId], view.topic ?? topic);
    } else if (view.kind === 'dm') {
      setMode('dm');
      setRecipients(emailsOf(dmPeers(view.userIds, self), people.peek()));
      draft = draftFor(composeData.peek(), 'private', dmPeers(view.userIds, self), '');
    }
    drafts.current.reset(draft?.id);
    setContent(draft?.content ?? '');
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

  const recipientCount = () => resolveRecipients(recipients, people.peek()).ids.length + 1;

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
    drafts.current.sent();
    setContent('');
    textarea.current?.focus();
  };

  const onInput = (value: string) => {
    setContent(value);
    const to = destination();
    keystroke(typeof to === 'string' ? undefined : to);
    drafts.current.edited(typeof to === 'string' ? undefined : draftTarget(to), value);
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
          <TopicInput streamId={chosenStream} value={topic} onInput={setTopic} />
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
        <ComposeTextarea
          value={content}
          onInput={onInput}
          onSend={send}
          placeholder={mode === 'stream' ? 'Message the channel' : 'Message these people'}
          to={mode === 'stream' ? { kind: 'stream', streamId: chosenStream } : { kind: 'dm', recipients: recipientCount() }}
          textarea={textarea}
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
