// The emoji picker (upstream's emoji popover), loaded only when first opened: a search over
// upstream's emoji names and the organization's custom emoji; choosing one adds my reaction (or
// removes it, when I have reacted so already). Upstream's names by code come from the server's table
// (lib/emoji/emoji-names.json, the `emoji-names` path of webapp/tsconfig.json), in this chunk.
import unicodeNames from 'emoji-names';
import { useState } from 'preact/hooks';
import { emojiChar, searchEmoji } from '../data/emoji';
import { toggleReaction } from '../message-actions';
import { me, messages, settings } from '../store';
import { closePopover, type Anchor } from '../ui';
import { PopoverFrame } from './Popover';

const SHOWN = 80;

export const EmojiPicker = ({ messageId, at }: { messageId: number; at: Anchor }) => {
  const [query, setQuery] = useState('');
  const message = messages.value.get(messageId);
  if (!message) return null;
  const found = searchEmoji(query, unicodeNames, settings.value.realmEmoji, SHOWN);
  const choose = (index: number) => {
    const emoji = found[index];
    if (!emoji) return;
    closePopover();
    void toggleReaction(message, emoji, me.value.userId).catch(() => undefined);
  };
  return (
    <PopoverFrame at={at} role="dialog" label="Add emoji reaction" class="emoji-picker-popover" id="emoji-picker">
      <input
        class="emoji-popover-filter"
        type="search"
        placeholder="Search emoji"
        aria-label="Search emoji"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            choose(0);
          }
        }}
      />
      <div class="emoji-popover-emoji-map" role="listbox" aria-label="Emoji">
        {found.length === 0 && <p class="emoji-popover-empty">No matching emoji</p>}
        {found.map((emoji, i) => (
          <button
            type="button"
            role="option"
            aria-selected={i === 0 && query !== ''}
            key={`${emoji.type}:${emoji.code}`}
            class="emoji-popover-emoji"
            data-emoji-name={emoji.name}
            title={`:${emoji.name}:`}
            aria-label={emoji.name}
            onClick={() => choose(i)}
          >
            {emoji.url ? <img src={emoji.url} alt="" class="emoji" /> : emojiChar(emoji.code)}
          </button>
        ))}
      </div>
    </PopoverFrame>
  );
};
