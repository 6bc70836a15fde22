// The inbox (upstream's #inbox-main): every conversation with unread messages, direct messages
// first, then each channel with its topics, each with its count and a link to it.
import { channelName, isTopicMuted, sortedSubscriptions } from '../data/channels';
import { namesOf } from '../data/people';
import { unreadTopicsOf } from '../data/unread';
import { channels, counts, me, people, unread } from '../store';
import { href } from './links';

export const Inbox = () => {
  const all = channels.value;
  const { dms } = counts.value;
  const self = me.value.userId;
  const everyone = people.value;
  const sections = sortedSubscriptions(all)
    .map((sub) => ({
      sub,
      topics: [...unreadTopicsOf(unread.value, sub.stream_id).values()].filter((t) => !isTopicMuted(all, sub.stream_id, t.topic)),
    }))
    .filter((section) => section.topics.length > 0);

  if (dms.size === 0 && sections.length === 0) {
    return (
      <div id="inbox-main" class="inbox">
        <div class="inbox_empty">
          <h2>You have no unread messages!</h2>
          <p>
            Catch up in the <a href={href({ kind: 'feed' })}>combined feed</a>, or pick a channel on the left.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div id="inbox-main" class="inbox">
      {dms.size > 0 && (
        <section class="inbox_folder">
          <h2 class="inbox_folder_header">Direct messages</h2>
          <ul>
            {[...dms.entries()].map(([key, count]) => {
              const ids = key.split(',').map(Number);
              return (
                <li key={key} class="inbox_row" data-user-ids-string={key}>
                  <a href={href({ kind: 'dm', userIds: ids })}>
                    {ids.length === 1 && ids[0] === self ? 'You (notes to self)' : namesOf(everyone, ids)}
                  </a>
                  <span class="unread_count">{count}</span>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {sections.map(({ sub, topics }) => (
        <section key={sub.stream_id} class="inbox_folder" data-stream-id={sub.stream_id}>
          <h2 class="inbox_folder_header">
            <a href={href({ kind: 'channel', streamId: sub.stream_id })}>
              <span class="channel_swatch" style={{ background: sub.color }} />#{channelName(all, sub.stream_id)}
            </a>
            <span class="unread_count">{topics.reduce((n, t) => n + t.count, 0)}</span>
          </h2>
          <ul>
            {topics.map((t) => (
              <li key={t.topic} class="inbox_row" data-topic-name={t.topic}>
                <a href={href({ kind: 'channel', streamId: sub.stream_id, topic: t.topic })}>
                  {t.topic === '' ? <em>general chat</em> : t.topic}
                </a>
                <span class="unread_count">{t.count}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
};
