// One row of the feed: its date divider and recipient bar when the day or the conversation
// changes, then the message with its sender, avatar, time, the server's rendered HTML, the edited
// and moved markers and its reactions. Upstream's classes, so tools written for it find the parts.
import { Component } from 'preact';
import { toggleStar } from '../actions';
import { emojiChar } from '../data/emoji';
import { toggleReaction } from '../message-actions';
import { settings, userSettings } from '../store';
import { anchorOf, popover } from '../ui';
import type { Message, Reaction } from '../api/types';
import type { FeedRow } from '../data/feed-rows';
import { dmPeers, messageUserIds } from '../data/narrow';
import { twentyFourHour } from '../data/user-settings';
import { Avatar } from './Avatar';
import { href } from './links';
import { Widget } from './Widget';

const time = (timestamp: number): string =>
  new Date(timestamp * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: !twentyFourHour(userSettings.peek()) });

const day = (timestamp: number): string =>
  new Date(timestamp * 1000).toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** A Unicode emoji's character; a custom emoji's image (its name while the organization has none). */
const EmojiOf = ({ reaction }: { reaction: Reaction }) => {
  if (reaction.reaction_type === 'unicode_emoji') return <span class="emoji">{emojiChar(reaction.emoji_code)}</span>;
  const custom = settings.value.realmEmoji[reaction.emoji_code];
  return custom ? (
    <img class="emoji" src={custom.source_url} alt={`:${reaction.emoji_name}:`} />
  ) : (
    <span class="emoji">{`:${reaction.emoji_name}:`}</span>
  );
};

/** Reactions by emoji, each a button that adds or removes mine. */
const Reactions = ({ message, me }: { message: Message; me: number }) => {
  const groups = new Map<string, Reaction[]>();
  for (const r of message.reactions)
    groups.set(`${r.reaction_type}:${r.emoji_code}`, [...(groups.get(`${r.reaction_type}:${r.emoji_code}`) ?? []), r]);
  return (
    <div class="message_reactions">
      {[...groups.entries()].map(([key, group]) => {
        const { emoji_name, emoji_code, reaction_type } = group[0]!;
        const mine = group.some((r) => r.user_id === me);
        return (
          <button
            type="button"
            key={key}
            class={`message_reaction${mine ? ' reacted' : ''}`}
            data-emoji-name={emoji_name}
            title={`:${emoji_name}:`}
            aria-pressed={mine}
            aria-label={`${emoji_name}: ${group.length}`}
            onClick={() =>
              void toggleReaction(message, { name: emoji_name, code: emoji_code, type: reaction_type }, me).catch(() => undefined)
            }
          >
            <EmojiOf reaction={group[0]!} />
            <span class="message_reaction_count">{group.length}</span>
          </button>
        );
      })}
    </div>
  );
};

/** A /me message as upstream shows it: the sender's name, then the rest of the text. */
const meMessage = (message: Message): string =>
  message.content.replace(/^<p>\/me /, `<p><span class="sender-status">${message.sender_full_name.replace(/[<>&"]/g, '')}</span> `);

/** A control on a message's line that opens its emoji picker or its menu. */
const Control = (props: { messageId: number; kind: 'emoji-picker' | 'message-actions'; class: string; label: string; text: string }) => (
  <button
    type="button"
    class={props.class}
    title={props.label}
    aria-label={props.label}
    aria-haspopup={props.kind === 'message-actions' ? 'menu' : 'dialog'}
    onClick={(e) => (popover.value = { kind: props.kind, messageId: props.messageId, at: anchorOf(e.currentTarget) })}
  >
    {props.text}
  </button>
);

type Props = {
  row: FeedRow;
  me: number;
  channelName: (id: number) => string;
  peopleNames: (ids: number[]) => string;
  /** Why a local echo was not sent, and how to drop it. */
  failed?: string;
  onDiscard?: () => void;
  /** The message j/k selected. */
  selected?: boolean;
};

const RecipientBar = ({
  message,
  me,
  channelName,
  peopleNames,
}: { message: Message } & Pick<Props, 'me' | 'channelName' | 'peopleNames'>) => {
  if (message.type === 'stream') {
    const streamId = message.stream_id!;
    return (
      <div class="recipient_row">
        <div class="message_header message_header_stream">
          <a class="stream_label" href={href({ kind: 'channel', streamId })}>
            #{channelName(streamId)}
          </a>
          <span class="recipient_bar_sep">›</span>
          <a class="stream_topic" href={href({ kind: 'channel', streamId, topic: message.subject })}>
            {message.subject === '' ? <em>general chat</em> : message.subject}
          </a>
          <button
            type="button"
            class="recipient_bar_icon topic_menu_button"
            title="Topic actions"
            aria-label="Topic actions"
            aria-haspopup="menu"
            onClick={(e) =>
              (popover.value = {
                kind: 'topic-actions',
                streamId,
                topic: message.subject,
                messageId: message.id,
                at: anchorOf(e.currentTarget),
              })
            }
          >
            ⋮
          </button>
        </div>
      </div>
    );
  }
  const peers = dmPeers(messageUserIds(message), me);
  return (
    <div class="recipient_row">
      <div class="message_header message_header_private_message">
        <a class="dm_recipients" href={href({ kind: 'dm', userIds: peers })}>
          {peers.length === 1 && peers[0] === me ? 'You (notes to self)' : `You and ${peopleNames(peers)}`}
        </a>
      </div>
    </div>
  );
};

/** Redrawn only when its message or its place in the feed changes. */
export class MessageRow extends Component<Props> {
  shouldComponentUpdate(next: Props): boolean {
    const { row, failed } = this.props;
    return (
      next.row.message !== row.message ||
      next.row.recipientBar !== row.recipientBar ||
      next.row.dateDivider !== row.dateDivider ||
      next.failed !== failed ||
      next.selected !== this.props.selected
    );
  }

  render({ row, me, channelName, peopleNames, failed, onDiscard, selected }: Props) {
    const { message } = row;
    const unread = !row.local && !message.flags.includes('read');
    const starred = message.flags.includes('starred');
    return (
      <div class="feed-item" data-row-key={row.local ? `local${message.id}` : String(message.id)}>
        {row.dateDivider && (
          <div class="date_row">
            <span>{day(message.timestamp)}</span>
          </div>
        )}
        {row.recipientBar && <RecipientBar message={message} me={me} channelName={channelName} peopleNames={peopleNames} />}
        <div
          class={`message_row${unread ? ' unread' : ''}${row.local ? ' local_echo' : ''}${failed ? ' failed' : ''}${selected ? ' selected_message' : ''}`}
          data-message-id={row.local ? undefined : message.id}
        >
          <Avatar name={message.sender_full_name} url={message.avatar_url} userId={message.sender_id} />
          <div class="message_body">
            <div class="message_sender_line">
              <button
                type="button"
                class="sender_name"
                aria-haspopup="dialog"
                onClick={(e) => (popover.value = { kind: 'user-card', userId: message.sender_id, at: anchorOf(e.currentTarget) })}
              >
                {message.sender_full_name}
              </button>
              <time class="message_time" dateTime={new Date(message.timestamp * 1000).toISOString()}>
                {time(message.timestamp)}
              </time>
              {message.last_edit_timestamp !== undefined && <span class="message_edit_notice">EDITED</span>}
              {message.last_moved_timestamp !== undefined && message.last_edit_timestamp === undefined && (
                <span class="message_edit_notice">MOVED</span>
              )}
              {row.local && !failed && <span class="message_edit_notice">SENDING…</span>}
              {!row.local && (
                <button
                  type="button"
                  class={`star${starred ? ' starred' : ''}`}
                  title={starred ? 'Unstar this message' : 'Star this message'}
                  aria-pressed={starred}
                  onClick={() => void toggleStar(message).catch(() => undefined)}
                >
                  {starred ? '★' : '☆'}
                </button>
              )}
              {!row.local && (
                <span class="message_controls">
                  <Control
                    messageId={message.id}
                    kind="emoji-picker"
                    class="emoji-message-control-button"
                    label="Add emoji reaction"
                    text="☺"
                  />
                  <Control
                    messageId={message.id}
                    kind="message-actions"
                    class="message-actions-menu-button"
                    label="Message actions"
                    text="⋮"
                  />
                </span>
              )}
            </div>
            {message.submessages && message.submessages.length > 0 ? (
              <Widget message={message} />
            ) : row.local ? (
              <div class="message_content rendered_markdown">
                <p class="local_text">{message.content}</p>
              </div>
            ) : (
              <div
                class={`message_content rendered_markdown${message.is_me_message ? ' status-message' : ''}`}
                dangerouslySetInnerHTML={{ __html: message.is_me_message ? meMessage(message) : message.content }}
              />
            )}
            {failed && (
              <div class="send_failed" role="alert">
                {failed}{' '}
                <button type="button" class="discard" onClick={onDiscard}>
                  Discard
                </button>
              </div>
            )}
            {message.reactions.length > 0 && <Reactions message={message} me={me} />}
          </div>
        </div>
      </div>
    );
  }
}
