// The compose box's topic, with the chosen channel's topics as a typeahead (GET
// /users/me/{stream_id}/topics, newest first, fetched when the channel changes).
import { useEffect, useState } from 'preact/hooks';
import { fetchTopics } from '../actions';
import { useTypeahead } from './Typeahead';

const SHOWN = 8;

export const TopicInput = ({
  streamId,
  value,
  onInput,
}: {
  streamId: number | undefined;
  value: string;
  onInput: (topic: string) => void;
}) => {
  const [topics, setTopics] = useState<string[]>([]);
  const [typed, setTyped] = useState(false);
  useEffect(() => {
    setTopics([]);
    if (streamId !== undefined)
      fetchTopics(streamId).then(
        (found) => setTopics(found.map((t) => t.name)),
        () => undefined,
      );
  }, [streamId]);
  const lower = value.toLowerCase();
  const shown = typed ? topics.filter((t) => t.toLowerCase().includes(lower) && t !== value).slice(0, SHOWN) : [];
  const typeahead = useTypeahead(
    'topic-typeahead',
    shown.map((t) => ({ key: t, label: t })),
    (item) => {
      setTyped(false);
      onInput(item.key);
    },
  );
  return (
    <span class="topic-input-wrapper">
      <input
        id="stream_message_recipient_topic"
        type="text"
        placeholder="Topic"
        aria-label="Topic"
        autocomplete="off"
        value={value}
        {...typeahead.inputProps}
        onInput={(e) => {
          setTyped(true);
          onInput(e.currentTarget.value);
        }}
        onKeyDown={(e) => {
          typeahead.onKeyDown(e);
        }}
      />
      {typeahead.menu}
    </span>
  );
};
