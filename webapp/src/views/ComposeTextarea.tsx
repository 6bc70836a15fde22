// The compose box's message area: the typeahead for mentions, channels, topics and emoji
// (data/compose-typeahead.ts), and uploads by the button, by pasting and by dropping files, each
// with a progress bar until its link replaces its placeholder in the text.
import { useEffect, useRef, useState } from 'preact/hooks';
import { fetchTopics } from '../actions';
import { wildcardsAllowed } from '../data/compose-data';
import { composeTypeahead, topicChannel, type Completion } from '../data/compose-typeahead';
import { activeRealmEmoji } from '../data/emoji';
import { loadEmojiNames, type EmojiName } from '../data/emoji-names';
import { channels, composeData, me, people, settings } from '../store';
import { uploadFile, uploadLink } from '../uploads';
import { useTypeahead } from './Typeahead';

type Props = {
  value: string;
  onInput: (value: string) => void;
  onSend: () => void;
  placeholder: string;
  /** Where the message goes (wildcards depend on it): a channel's id, or a DM's recipient count. */
  to: { kind: 'stream'; streamId: number | undefined } | { kind: 'dm'; recipients: number };
  textarea: preact.RefObject<HTMLTextAreaElement | null>;
};

type Upload = { id: number; name: string; share: number; error?: string };

let uploadCounter = 0;

export const ComposeTextarea = ({ value, onInput, onSend, placeholder, to, textarea }: Props) => {
  const [cursor, setCursor] = useState(0);
  const [emoji, setEmoji] = useState<EmojiName[]>([]);
  const [topics, setTopics] = useState(new Map<number, string[]>());
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // The latest text, for an upload that ends after more was typed.
  const latest = useRef(value);
  latest.current = value;

  const before = value.slice(0, cursor);
  const wantsEmoji = /(?:^|[\s(]):[\w+-]{2,}$/.test(before);
  useEffect(() => {
    if (wantsEmoji && emoji.length === 0) void loadEmojiNames().then(setEmoji, () => undefined);
  }, [wantsEmoji]);
  const channelOfTopics = topicChannel(before);
  const topicStream =
    channelOfTopics === undefined ? undefined : [...channels.value.subs.values()].find((s) => s.name === channelOfTopics)?.stream_id;
  useEffect(() => {
    if (topicStream === undefined || topics.has(topicStream)) return;
    fetchTopics(topicStream).then(
      (found) =>
        setTopics((known) =>
          new Map(known).set(
            topicStream,
            found.map((t) => t.name),
          ),
        ),
      () => undefined,
    );
  }, [topicStream]);

  const data = composeData.value;
  const recipients = to.kind === 'dm' ? to.recipients : channels.value.subs.get(to.streamId ?? -1)?.subscriber_count;
  const match = composeTypeahead(before, {
    people: people.value,
    channels: channels.value,
    groups: data.groups,
    emoji: [...emoji, ...activeRealmEmoji(settings.value.realmEmoji).map(({ name }) => ({ name }))],
    topicsOf: (id) => topics.get(id),
    to: to.kind,
    wildcardsAllowed: wildcardsAllowed(data, me.value.userId, recipients),
    me: me.value.userId,
  });
  const completions = match?.completions ?? [];

  const replace = (start: number, end: number, text: string) => {
    const next = latest.current.slice(0, start) + text + latest.current.slice(end);
    latest.current = next;
    const at = start + text.length;
    // Into the element at once, so a key typed before the next render lands after the completion.
    const element = textarea.current;
    const focused = element !== null && document.activeElement === element;
    if (element) element.value = next;
    if (focused) element.setSelectionRange(at, at);
    onInput(next);
    setCursor(focused ? at : cursor);
  };

  const typeahead = useTypeahead('compose-typeahead', completions, (item) => {
    const completion = item as Completion;
    if (match) replace(match.start, cursor, completion.text);
  });

  const upload = (files: readonly File[]) => {
    for (const file of files) {
      uploadCounter += 1;
      const id = uploadCounter;
      const placeholderText = `[Uploading ${file.name}…]()`;
      const at = textarea.current?.selectionStart ?? latest.current.length;
      const space = (text: string) => (text === '' || /\s/.test(text) ? '' : ' ');
      replace(at, at, `${space(latest.current.slice(at - 1, at))}${placeholderText}${space(latest.current.slice(at, at + 1))}`);
      setUploads((list) => [...list, { id, name: file.name, share: 0 }]);
      const setShare = (share: number) => setUploads((list) => list.map((u) => (u.id === id ? { ...u, share } : u)));
      uploadFile(file, setShare).then(
        (answer) => {
          const start = latest.current.indexOf(placeholderText);
          if (start >= 0) replace(start, start + placeholderText.length, uploadLink(answer));
          setUploads((list) => list.filter((u) => u.id !== id));
        },
        (error: Error) => {
          const start = latest.current.indexOf(placeholderText);
          if (start >= 0) replace(start, start + placeholderText.length, '');
          setUploads((list) => list.map((u) => (u.id === id ? { ...u, error: error.message } : u)));
        },
      );
    }
  };

  return (
    <div
      class={`compose-textarea-wrapper${dragging ? ' drag-over' : ''}`}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        setDragging(false);
        const files = [...(e.dataTransfer?.files ?? [])];
        if (files.length === 0) return;
        e.preventDefault();
        upload(files);
      }}
    >
      <textarea
        id="compose-textarea"
        ref={textarea}
        rows={3}
        placeholder={placeholder}
        aria-label="Message"
        value={value}
        {...typeahead.inputProps}
        onInput={(e) => {
          onInput(e.currentTarget.value);
          setCursor(e.currentTarget.selectionStart);
        }}
        onKeyUp={(e) => setCursor(e.currentTarget.selectionStart)}
        onClick={(e) => setCursor(e.currentTarget.selectionStart)}
        onPaste={(e) => {
          const files = [...(e.clipboardData?.files ?? [])];
          if (files.length === 0) return;
          e.preventDefault();
          upload(files);
        }}
        onKeyDown={(e) => {
          if (typeahead.onKeyDown(e)) return;
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            onSend();
          }
        }}
      />
      {typeahead.menu}
      {uploads.length > 0 && (
        <ul class="upload-list">
          {uploads.map((u) => (
            <li key={u.id} class={`upload-progress${u.error ? ' upload-failed' : ''}`}>
              <span class="upload-name">{u.name}</span>
              {u.error ? (
                <span role="alert">
                  {u.error}{' '}
                  <button type="button" class="upload-dismiss" onClick={() => setUploads((list) => list.filter((x) => x.id !== u.id))}>
                    Dismiss
                  </button>
                </span>
              ) : (
                <progress class="upload-bar" max={1} value={u.share} aria-label={`Uploading ${u.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      <input
        ref={fileInput}
        id="file_input"
        type="file"
        multiple
        hidden
        onChange={(e) => {
          upload([...(e.currentTarget.files ?? [])]);
          e.currentTarget.value = '';
        }}
      />
      <button type="button" class="compose_upload_file" title="Upload files" onClick={() => fileInput.current?.click()}>
        Attach a file
      </button>
    </div>
  );
};
