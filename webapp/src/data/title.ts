// Upstream's names of views and its page title, `(N) <view> - <organization> - Zulip`, which the
// desktop app's badge also reads.
import { channelName, type Channels } from './channels';
import { dmPeers, type Narrow } from './narrow';
import { namesOf, type People } from './people';

export const viewTitle = (narrow: Narrow, channels: Channels, people: People, me: number): string => {
  switch (narrow.kind) {
    case 'inbox':
      return 'Inbox';
    case 'feed':
      return 'Combined feed';
    case 'channel': {
      const name = channelName(channels, narrow.streamId) ?? 'Unknown channel';
      return narrow.topic === undefined ? `#${name}` : `#${name} > ${narrow.topic}`;
    }
    case 'dm':
      return namesOf(people, dmPeers(narrow.userIds, me));
    case 'mentioned':
      return 'Mentions';
    case 'starred':
      return 'Starred messages';
    case 'search':
      return 'Search results';
  }
};

export const pageTitle = (unreadTotal: number, view: string, organization: string): string =>
  `${unreadTotal > 0 ? `(${unreadTotal}) ` : ''}${view} - ${organization} - Zulip`;
