// One row of the feed: its date divider and recipient bar when the day or the conversation
// changes, then the message with its sender, avatar, time, the server's rendered HTML, the edited
// and moved markers and its reactions. Upstream's classes, so tools written for it find the parts.
import { Component } from 'preact';
import { toggleStar } from '../actions';
import type { Message, Reaction } from '../api/types';
import type { FeedRow } from '../data/feed-rows';
import { dmPeers, messageUserIds } from '../data/narrow';
import { twentyFourHour } from '../data/user-settings';
import { userSettings } from '../store';
import { Avatar } from './Avatar';
import { href } from './links';
import { Widget } from './Widget';

const time = (timestamp: number): string =>
  new Date(timestamp * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: !twentyFourHour(userSettings.peek()) });

const day = (timestamp: number): string =>
  new Date(timestamp * 1000).toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });

/** A Unicode emoji's character from its code ("1f44d", "1f468-200d-1f4bb"); custom emoji show their name. */
const emojiText = (reaction: Reaction): string =>
  reaction.reaction_type === 'unicode_emoji'
    ? String.fromCodePoint(...reaction.emoji_code.split('-').map((hex) => parseInt(hex, 16)))
    : `:${reaction.emoji_name}:`;

const Reactions = ({ reactions, me }: { reactions: Reaction[]; me: number }) => {
  const groups = new Map<string, Reaction[]>();
  for (const r of reactions)
    groups.set(`${r.reaction_type}:${r.emoji_code}`, [...(groups.get(`${r.reaction_type}:${r.emoji_code}`) ?? []), r]);
  return (
    <div class="message_reactions">
      {[...groups.entries()].map(([key, group]) => (
        <span
          key={key}
          class={`message_reaction${group.some((r) => r.user_id === me) ? ' reacted' : ''}`}
          title={`:${group[0]!.emoji_name}:`}
        >
          <span class="emoji">{emojiText(group[0]!)}</span>
          <span class="message_reaction_count">{group.length}</span>
        </span>
      ))}
    </div>
  );
};

/** A /me message as upstream shows it: the sender's name, then the rest of the text. */
const meMessage = (message: Message): string =>
  message.content.replace(/^<p>\/me /, `<p><span class="sender-status">${message.sender_full_name.replace(/[<>&"]/g, '')}</span> `);

type Props = {
  row: FeedRow;
  me: number;
  channelName: (id: number) => string;
  peopleNames: (ids: number[]) => string;
  /** Why a local echo was not sent, and how to drop it. */
  failed?: string;
  onDiscard?: () => void;
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
      next.failed !== failed
    );
  }

  render({ row, me, channelName, peopleNames, failed, onDiscard }: Props) {
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
          class={`message_row${unread ? ' unread' : ''}${row.local ? ' local_echo' : ''}${failed ? ' failed' : ''}`}
          data-message-id={row.local ? undefined : message.id}
        >
          <Avatar name={message.sender_full_name} url={message.avatar_url} userId={message.sender_id} />
          <div class="message_body">
            <div class="message_sender_line">
              <span class="sender_name">{message.sender_full_name}</span>
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
            {message.reactions.length > 0 && <Reactions reactions={message.reactions} me={me} />}
          </div>
        </div>
      </div>
    );
  }
}
