// "Hamlet is typing…" under a topic's or a DM conversation's feed.
import type { FeedNarrow } from '../data/narrow';
import { namesOf } from '../data/people';
import { typistsIn } from '../data/typing';
import { me, now, people, typing } from '../store';

export const TypingNotice = ({ narrow }: { narrow: FeedNarrow }) => {
  const ids = typistsIn(typing.value, narrow, me.value.userId, now.value);
  if (ids.length === 0) return null;
  const names = namesOf(people.value, ids);
  return (
    <div id="typing_notifications" class="typing_notification" aria-live="polite">
      {ids.length > 3 ? 'Several people are typing…' : `${names} ${ids.length === 1 ? 'is' : 'are'} typing…`}
    </div>
  );
};
