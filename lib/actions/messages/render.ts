// Rendering a message's content for a send or an edit: the one place that loads what the renderer
// needs (lib/render is pure), and only what the content refers to (referencesIn), so the cost
// follows the message, not the organization: the users it mentions by id (one batched read) or by
// name (one indexed query per name), the organization's groups only when it names a group (group
// names compare case-insensitively, and a mention needs the group's members), the channels it
// links by name (their name locks), the organization's linkifiers, and its custom emoji only when
// the content writes an emoji name (`:name:`).
import { RealmGroups } from '../../access/user-groups';
import { BadRequestError } from '../../errors';
import type { Channel } from '../../models/channel';
import { MAX_MESSAGE_LENGTH } from '../../models/message-content';
import { realmUrl, type Realm } from '../../models/realm';
import { emojiSourceUrl, type RealmEmoji } from '../../models/realm-emoji';
import { sortLinkifiers, type Linkifier } from '../../models/linkifier';
import type { User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { referencesIn, renderMessage, topicLinks, type RenderInput, type RenderResult, type TopicLink } from '../../render';
import * as channelsStore from '../../store/channels';
import * as linkifiersStore from '../../store/linkifiers';
import * as realmEmojiStore from '../../store/realm-emoji';
import * as usersStore from '../../store/users';

/**
 * How many users of one full name a mention by name reads: two tell a unique name (a mention)
 * from an ambiguous one (none: the `|id` form says which user).
 */
const USERS_PER_MENTIONED_NAME = 2;

/** Where the organization's groups and linkifiers come from (a send has read them already). */
export type RenderSources = {
  groups: RealmGroups | (() => Promise<RealmGroups>);
  linkifiers: Promise<Linkifier[]>;
  /** The author's translate_emoticons setting: emoticons become emoji. */
  translateEmoticons: boolean;
};

export type RenderedContent = RenderResult & {
  /** The topic's links from the same linkifiers ([] without a topic). */
  topicLinks: TopicLink[];
  /** The organization's groups when the content named one (its mentions expand through them). */
  groups: RealmGroups | undefined;
  /** The users mentionedUserIds names, as read (the send looks for outgoing webhook bots among them). */
  mentionedUsers: User[];
};

/** The users a content names: by id, and by name (case-insensitively). */
const mentionedUsers = async (realmId: number, names: string[], ids: number[]): Promise<User[]> => {
  const [byName, byId] = await Promise.all([
    names.length > 0 ? usersStore.listByFullNames(realmId, names, USERS_PER_MENTIONED_NAME) : [],
    ids.length > 0 ? usersStore.getMany(realmId, ids) : [],
  ]);
  return [...new Map([...byName, ...byId].map((u) => [u.id, u])).values()];
};

/**
 * Loads what `content` refers to and renders it. Channels are linked only when the author may see
 * them without a subscription read: public and web-public ones (a private channel's link is left
 * as text). `topic`: the message's topic, for its links ('' for a direct message). Links to the
 * organization's own URL render relative, as upstream's.
 */
export const renderContent = async (realm: Realm, content: string, topic: string, sources: RenderSources): Promise<RenderedContent> => {
  const realmId = realm.id;
  const refs = referencesIn(content);
  const channelNames = [...refs.channelNames, ...refs.topics.map((t) => t.channelName)];
  const [users, groups, channels, linkifiers, realmEmoji] = await Promise.all([
    mentionedUsers(realmId, refs.userNames, refs.userIds),
    refs.groupNames.length === 0 ? undefined : typeof sources.groups === 'function' ? sources.groups() : sources.groups,
    channelNames.length > 0 ? channelsStore.getChannelsByNames(realmId, channelNames) : ([] as Channel[]),
    sources.linkifiers,
    refs.emojiNames.length > 0 ? realmEmojiStore.listRealmEmoji(realmId) : ([] as RealmEmoji[]),
  ]);
  const input: RenderInput = {
    users: users.map((u) => ({ id: u.id, fullName: u.fullName, isActive: u.isActive })),
    groups: (groups?.groups ?? []).map((g) => ({ id: g.id, name: g.name, deactivated: g.deactivated })),
    channels: channels.filter((c) => !c.inviteOnly || c.isWebPublic).map((c) => ({ id: c.id, name: c.name })),
    linkifiers: sortLinkifiers(linkifiers).map((l) => ({ pattern: l.pattern, urlTemplate: l.urlTemplate })),
    realmEmoji: realmEmoji.filter((e) => !e.deactivated).map((e) => ({ name: e.name, sourceUrl: emojiSourceUrl(e) })),
    latestInTopic: new Map<string, number>(),
    translateEmoticons: sources.translateEmoticons,
    realmUrl: realmUrl(realm),
  };
  const result = renderMessage(content, input);
  const mentioned = users.filter((u) => result.mentionedUserIds.includes(u.id));
  return { ...result, topicLinks: topicLinks(topic, input.linkifiers), groups, mentionedUsers: mentioned };
};

/** The most content, in characters, POST /messages/render renders (upstream's limit on the HTML). */
const MAX_PREVIEW_LENGTH = 100 * MAX_MESSAGE_LENGTH;

/**
 * POST /messages/render: the HTML `content` would be sent as by `user` (the composers' preview),
 * from the same renderer as a send, with the user's emoticon setting; nothing is stored.
 */
export const previewRender = async (user: User, realm: Realm, content: string): Promise<{ rendered: string }> => {
  if (content.length > MAX_PREVIEW_LENGTH) throw new BadRequestError('Unable to render message');
  const { html } = await renderContent(realm, content, '', {
    groups: () => RealmGroups.load(realm.id),
    linkifiers: linkifiersStore.readLinkifierList(realm.id).then((list) => list.linkifiers),
    translateEmoticons: settingsOfUser(user).translate_emoticons,
  });
  if (html.length > MAX_PREVIEW_LENGTH) throw new BadRequestError('Unable to render message');
  return { rendered: html };
};
