// Reading messages: GET /messages (a narrow around an anchor, or listed ids), GET /messages/{id},
// and the selection of POST /messages/flags/narrow. One pipeline: resolve the narrow (lib/models/
// narrow.ts), pick its source, read pages of that partition from the anchor, keep what matches
// the narrow and what the viewer may see, and build the message objects.
// Upstream: zerver/views/message_fetch.py, zerver/lib/narrow.py (fetch_messages,
// find_first_unread_anchor), zerver/views/message_edit.py json_fetch_raw_message.
import { BadRequestError } from '../../errors';
import { escapeHtml } from '../../models/html';
import { accessMessage, MessageViewer } from '../../access/messages';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import { adaptMessageForViewer, apiFlags, buildMessageObject, HISTORICAL_FLAGS } from '../../models/message-object';
import { messageEditSettings } from '../../models/message-edit';
import { assembleRange, NEWEST_ANCHOR, planRange, type Anchor, type RangeResult } from '../../models/message-range';
import {
  applyWithTarget,
  filtersContent,
  type NarrowLookup,
  isDmNarrow,
  matchesNarrow,
  narrowSource,
  resolveNarrow,
  type MessageFacts,
  type MessageNarrowTerm,
  type NarrowSource,
  type ResolvedNarrow,
  searchOf,
  type SearchText,
  splitWithTerm,
  type WithTarget,
} from '../../models/narrow';
import type { Realm } from '../../models/realm';
import { searchSource, type SearchSource } from '../../models/search-narrow';
import type { User } from '../../models/user';
import { messagePartitions, queryPartitionPage, type MessagePartition } from '../../store/message-queries';
import { getMessagesByIds } from '../../store/messages';
import type { Item } from '../../store/common';
import * as channelsStore from '../../store/channels';
import * as submessagesStore from '../../store/submessages';
import * as usersStore from '../../store/users';
import { readSearchSide, searchHighlights, searchHitsAmong } from './search';
import { factsOf, rowFacts, withViewerFlags, type VisibleMessage } from './visible';

export type { VisibleMessage } from './visible';

/** The message ids of one page of a partition, with the viewer's flags when the page holds rows. */
const visibleOfPage = async (
  viewer: MessageViewer,
  narrow: ResolvedNarrow,
  partition: MessagePartition,
  items: Item[],
): Promise<VisibleMessage[]> => {
  if (partition.holds === 'rows') {
    const rows = items.map(rowFacts).filter((f) => matchesNarrow(narrow, f));
    const messages = new Map(
      (
        await getMessagesByIds(
          viewer.user.realmId,
          rows.map((r) => r.id),
        )
      ).map((m) => [m.id, m]),
    );
    const out: VisibleMessage[] = [];
    for (const row of rows) {
      const message = messages.get(row.id);
      // Matched again on the message: terms that read its details (has, search) passed the row.
      if (message && matchesNarrow(narrow, factsOf(message, row.flags)) && (await viewer.canSee(message, true)))
        out.push({ message, flags: row.flags, received: true });
    }
    return out;
  }
  return withViewerFlags(viewer, narrow, items as unknown as Message[]);
};

/** The partitions a source reads (several for channels:public, merged by id). */
const partitionsOf = (source: NarrowSource, user: User): MessagePartition[] => {
  switch (source.kind) {
    case 'channel':
      return [
        source.topic === undefined ? messagePartitions.channel(source.channelId) : messagePartitions.topic(source.channelId, source.topic),
      ];
    case 'channels':
      return source.channelIds.map(messagePartitions.channel);
    case 'dm':
      return [messagePartitions.dm(user.realmId, source.userIds)];
    case 'rows':
      switch (source.of) {
        case 'all':
          return [messagePartitions.rowsOfUser(user.id)];
        case 'unread':
          return [messagePartitions.unreadRows(user.id)];
        case 'starred':
          return [messagePartitions.starredRows(user.id)];
        case 'mentioned':
          return [messagePartitions.mentionedRows(user.id)];
        case 'dms':
          return [messagePartitions.dmRows(user.id)];
        case 'channel':
          return [messagePartitions.channelRows(user.id, source.channelId)];
      }
      return [];
    default:
      return [];
  }
};

/** Items read per Query: what is still wanted plus one, at least a small page (filters drop some). */
const pageLimit = (wanted: number): number => Math.min(Math.max(wanted + 1, 20), 1000);

/**
 * The most items one side of a fetch reads for a narrow that filters on content (`has`, `in`;
 * filtersContent; a `search` narrow reads the search index instead, search.ts): the window of the narrowed messages it searches, so a rare match costs a
 * bounded read, never the whole history. A window that ends without a match ends the side
 * (found_oldest / found_newest); one that found some does not, so the client's next fetch, anchored
 * at the last match, moves the window on.
 */
const CONTENT_FILTER_WINDOW = 1000;

/** What one side of a range read: the messages, and whether the content window cut it short. */
type SideRead = { messages: VisibleMessage[]; windowCut: boolean };

/**
 * Up to `want` visible messages of the narrow on one side of `from` (older: newest first; newer:
 * oldest first), reading each partition a page at a time until enough matched or it ends.
 */
const readSide = async (
  viewer: MessageViewer,
  narrow: ResolvedNarrow,
  source: NarrowSource | SearchSource,
  side: { direction: 'older' | 'newer'; from: number; inclusive: boolean; want: number },
): Promise<SideRead> => {
  if (source.kind === 'search') return { messages: await readSearchSide(viewer, narrow, source, side), windowCut: false };
  if (side.want <= 0 || source.kind === 'none') return { messages: [], windowCut: false };
  const order = (a: VisibleMessage, b: VisibleMessage): number =>
    side.direction === 'older' ? b.message.id - a.message.id : a.message.id - b.message.id;
  if (source.kind === 'ids') {
    const inRange = (id: number): boolean =>
      side.direction === 'older'
        ? id < side.from || (side.inclusive && id === side.from)
        : id > side.from || (side.inclusive && id === side.from);
    const messages = await getMessagesByIds(viewer.user.realmId, source.ids.filter(inRange));
    return { messages: (await withViewerFlags(viewer, narrow, messages)).sort(order).slice(0, side.want), windowCut: false };
  }
  const window = filtersContent(narrow) ? CONTENT_FILTER_WINDOW : Infinity;
  const found: VisibleMessage[] = [];
  let windowCut = false;
  for (const partition of partitionsOf(source, viewer.user)) {
    const mine: VisibleMessage[] = [];
    let cursor: Record<string, unknown> | undefined;
    let scanned = 0;
    do {
      const limit = Math.min(pageLimit(side.want - mine.length), window - scanned);
      const page = await queryPartitionPage(partition, { ...side, limit, cursor });
      scanned += page.items.length;
      mine.push(...(await visibleOfPage(viewer, narrow, partition, page.items)));
      cursor = page.cursor;
    } while (cursor && mine.length < side.want && scanned < window);
    if (cursor && mine.length < side.want && mine.length > 0) windowCut = true;
    found.push(...mine.slice(0, side.want));
  }
  return { messages: found.sort(order).slice(0, side.want), windowCut };
};

/** Whether the user muted the channel (first_unread skips muted channels outside DM narrows). */
const mutedChannel = async (user: User, channelId: number): Promise<boolean> =>
  (await channelsStore.getSubscription(user.id, channelId))?.isMuted === true;

/**
 * Upstream's find_first_unread_anchor: the oldest unread message of the narrow (outside direct-
 * message narrows, not in a muted channel), read from the viewer's unread index; NEWEST_ANCHOR
 * when there is none.
 */
const firstUnreadAnchor = async (viewer: MessageViewer, narrow: ResolvedNarrow): Promise<number> => {
  const partition = messagePartitions.unreadRows(viewer.user.id);
  const skipMuted = !isDmNarrow(narrow);
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryPartitionPage(partition, { direction: 'newer', from: 0, inclusive: true, limit: 100, cursor });
    const candidates: MessageFacts[] = [];
    for (const row of page.items.map(rowFacts)) {
      if (!matchesNarrow(narrow, row)) continue;
      if (skipMuted && row.streamId !== null && (await mutedChannel(viewer.user, row.streamId))) continue;
      candidates.push(row);
    }
    // A search narrow asks the index once per page which of them match.
    const hits = await searchHitsAmong(
      viewer.user.realmId,
      narrow,
      candidates.map((r) => r.id),
    );
    for (const row of candidates) {
      const [message] = await getMessagesByIds(viewer.user.realmId, [row.id]);
      if (message && matchesNarrow(narrow, factsOf(message, row.flags, hits)) && (await viewer.canSee(message, true))) return row.id;
    }
    cursor = page.cursor;
  } while (cursor);
  return NEWEST_ANCHOR;
};

/**
 * Name and id lookups for resolving a narrow, through the request's viewer (channel names read the
 * organization's channel list once, and a channel found by name is not read again).
 */
const narrowLookup = (viewer: MessageViewer): NarrowLookup => {
  let realmChannels: Promise<Channel[]> | undefined;
  const allChannels = (): Promise<Channel[]> => (realmChannels ??= channelsStore.listChannelsOfRealm(viewer.user.realmId));
  return {
    channel: async (nameOrId) => {
      if (typeof nameOrId === 'number') return viewer.channel(nameOrId);
      const name = nameOrId.trim().toLowerCase();
      const found = (await allChannels()).find((c) => c.name.toLowerCase() === name);
      if (found) viewer.knowChannel(found);
      return found;
    },
    channelIds: async (which) =>
      (await allChannels()).filter((c) => (which === 'web-public' ? c.isWebPublic : !c.inviteOnly)).map((c) => c.id),
    user: async (emailOrId) => {
      if (typeof emailOrId === 'number') return usersStore.get(viewer.user.realmId, emailOrId);
      return usersStore.getByEmail(viewer.user.realmId, emailOrId.trim());
    },
    mutedChannelIds: async () =>
      (await channelsStore.listSubscriptionsOfUser(viewer.user.id)).filter((s) => s.active && s.isMuted).map((s) => s.channelId),
  };
};

/** A narrow resolved for a viewer, and where it reads. */
export type NarrowSelection = { viewer: MessageViewer; narrow: ResolvedNarrow; source: NarrowSource | SearchSource };

/** Resolves a narrow (upstream's BAD_NARROW errors) and picks its source, loading the channel it names. */
export const selectNarrow = async (
  user: User,
  terms: MessageNarrowTerm[],
  viewer: MessageViewer = new MessageViewer(user),
): Promise<NarrowSelection> => {
  const narrow = await resolveNarrow(terms, user.id, narrowLookup(viewer));
  const wholeHistory = new Map<number, boolean>();
  for (const term of narrow) {
    if (term.operator === 'channel' && !term.negated) wholeHistory.set(term.channelId, await viewer.readsWholeHistory(term.channelId));
  }
  const fullHistory = (id: number): boolean => wholeHistory.get(id) === true;
  // A search reads the index, in the channels the viewer ever subscribed to unless the narrow says otherwise.
  const search =
    searchOf(narrow) &&
    searchSource(narrow, fullHistory, {
      id: user.id,
      guest: viewer.isGuest,
      subscribedChannelIds: (await channelsStore.listSubscriptionsOfUser(user.id)).map((s) => s.channelId),
    });
  return { viewer, narrow, source: search || narrowSource(narrow, fullHistory, { guest: viewer.isGuest }) };
};

/**
 * The messages of a selection around an anchor, in id order, with upstream's found_* flags.
 * `first_unread` resolves first. Reads at most two sides of one partition (several for
 * channels:public), plus one BatchGetItem per page for the other half (flags or messages).
 */
export const readRange = async (
  selection: NarrowSelection,
  anchor: Anchor,
  numBefore: number,
  numAfter: number,
  includeAnchor: boolean,
): Promise<RangeResult<VisibleMessage> & { anchor: number }> => {
  const { viewer, narrow, source } = selection;
  const resolvedAnchor = anchor === 'first_unread' ? await firstUnreadAnchor(viewer, narrow) : anchor;
  const plan = planRange(resolvedAnchor, numBefore, numAfter, includeAnchor);
  const [before, fromAnchor] = await Promise.all([
    readSide(viewer, narrow, source, { direction: 'older', from: plan.anchor, inclusive: false, want: plan.before }),
    readSide(viewer, narrow, source, {
      direction: 'newer',
      from: plan.anchor,
      inclusive: plan.includeAnchor,
      want: plan.after + (plan.includeAnchor ? 1 : 0),
    }),
  ]);
  const anchorMessage = fromAnchor.messages.find((v) => v.message.id === plan.anchor);
  const after = fromAnchor.messages.filter((v) => v.message.id > plan.anchor);
  const range = assembleRange(plan, numBefore, numAfter, { before: before.messages, anchor: anchorMessage, after });
  return {
    ...range,
    foundOldest: range.foundOldest && !before.windowCut,
    foundNewest: range.foundNewest && !fromAnchor.windowCut,
    anchor: resolvedAnchor,
  };
};

/** The listed messages of a selection that the viewer may see (only those they received, if asked), in id order. */
const readListed = async (selection: NarrowSelection, ids: number[], receivedOnly = false): Promise<VisibleMessage[]> => {
  const messages = await getMessagesByIds(selection.viewer.user.realmId, ids);
  const searchHits = await searchHitsAmong(selection.viewer.user.realmId, selection.narrow, ids);
  return (await withViewerFlags(selection.viewer, selection.narrow, messages, { searchHits, receivedOnly })).sort(
    (a, b) => a.message.id - b.message.id,
  );
};

/**
 * GET /messages/matches_narrow, as upstream's messages_in_narrow_backend: the narrow resolved as
 * for GET /messages (upstream's BAD_NARROW errors), then, of the listed messages, those the caller
 * received (upstream reads only their zerver_usermessage rows) that match it, keyed by id, each
 * with match_content (the rendered content) and match_subject (the escaped topic), with a search's
 * highlights. Reads only; emits nothing.
 */
export const messagesMatchingNarrow = async (
  user: User,
  terms: MessageNarrowTerm[],
  ids: number[],
): Promise<Record<string, { match_content: string; match_subject: string }>> => {
  const selection = await selectNarrow(user, terms);
  const matching = (await readListed(selection, [...new Set(ids)], true)).map((v) => v.message);
  const search = searchOf(selection.narrow);
  const fields = search
    ? await searchHighlights(search, matching)
    : matching.map((m) => ({ match_content: m.renderedContent ?? '', match_subject: escapeHtml(m.topic) }));
  return Object.fromEntries(matching.map((m, i) => [String(m.id), fields[i]]));
};

/** How a request wants its message objects (upstream's GET /messages parameters of the same names). */
export type MessageObjectOptions = { applyMarkdown: boolean; clientGravatar: boolean; allowEmptyTopicName: boolean };

/** The API objects of visible messages: reads their senders and direct-message participants once. */
const buildMessageObjects = async (
  user: User,
  realm: Realm,
  viewer: MessageViewer,
  visible: VisibleMessage[],
  opts: MessageObjectOptions & { search?: SearchText },
): Promise<Record<string, unknown>[]> => {
  const userIds = new Set<number>();
  const channelIds = new Set<number>();
  for (const { message } of visible) {
    userIds.add(message.senderId);
    message.dmUserIds.forEach((id) => userIds.add(id));
    if (message.streamId !== null) channelIds.add(message.streamId);
  }
  // The submessages of messages that have any after their widget (one query each), read with the users.
  const [senders, submessages] = await Promise.all([
    usersStore.getManyWithSystemBots(user.realmId, [...userIds]),
    submessagesStore.listSubmessagesOfMessages(visible.map((v) => v.message)),
  ]);
  const users = new Map(senders.map((u) => [u.id, u]));
  const channelNames = new Map<number, string>();
  for (const id of channelIds) channelNames.set(id, (await viewer.channel(id))?.name ?? '');
  const editHistoryVisibility = messageEditSettings(realm).editHistoryVisibility;
  const highlights = opts.search
    ? await searchHighlights(
        opts.search,
        visible.map((v) => v.message),
      )
    : [];
  const unknownSender = (id: number) => ({ id, email: `user${id}@unknown.invalid`, fullName: 'Unknown user' });
  return visible.map(({ message: m, flags }, i) => {
    const object = buildMessageObject(m, {
      sender: users.get(m.senderId) ?? unknownSender(m.senderId),
      realmStringId: realm.stringId,
      channelName: m.streamId === null ? undefined : channelNames.get(m.streamId),
      participants: m.dmUserIds.map((id) => users.get(id) ?? unknownSender(id)),
      viewerId: user.id,
      editHistoryVisibility,
      submessages: submessages.get(m.id),
    });
    const adapted = adaptMessageForViewer(object, {
      viewerId: user.id,
      ...opts,
      rawContent: m.content,
      dmUserIds: m.dmUserIds,
      streamId: m.streamId,
      senderId: m.senderId,
    });
    return { ...adapted, flags: apiFlags(flags), ...highlights[i] };
  });
};

export type FetchMessagesRequest = {
  anchor: Anchor | undefined;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: MessageNarrowTerm[];
  messageIds: number[] | undefined;
} & MessageObjectOptions;

/**
 * Upstream's `with` operator (GET /messages only; POST /messages/flags/narrow answers "unknown
 * operator with"): the narrow's `with` term and its channel, topic and direct-message terms become
 * the conversation its message is in now, if the viewer may see it (accessMessage: the message and
 * the viewer's row, then its channel through the viewer); see applyWithTarget.
 */
const resolveWithTerm = async (viewer: MessageViewer, terms: MessageNarrowTerm[]): Promise<MessageNarrowTerm[]> => {
  const split = splitWithTerm(terms);
  if (!split) return terms;
  let target: WithTarget | undefined;
  try {
    const { message } = await accessMessage(viewer.user, split.messageId, { modifying: false, viewer });
    target = message.streamId === null ? { dmUserIds: message.dmUserIds } : { channelId: message.streamId, topic: message.topic };
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
  }
  return applyWithTarget(split.others, target);
};

/**
 * GET /messages, after its parameter checks: resolves the narrow (its `with` term first), reads the range (or the listed
 * ids) and builds the message objects. Reads only; emits nothing.
 */
export const fetchMessages = async (user: User, realm: Realm, req: FetchMessagesRequest): Promise<Record<string, unknown>> => {
  const viewer = new MessageViewer(user);
  const selection = await selectNarrow(user, await resolveWithTerm(viewer, req.narrow), viewer);
  if (req.messageIds !== undefined) {
    const visible = await readListed(selection, req.messageIds);
    return {
      messages: await buildMessageObjects(user, realm, selection.viewer, visible, { ...req, search: searchOf(selection.narrow) }),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }
  if (req.anchor === undefined) throw new BadRequestError("Missing 'anchor' argument.");
  const range = await readRange(selection, req.anchor, req.numBefore, req.numAfter, req.includeAnchor);
  return {
    messages: await buildMessageObjects(user, realm, selection.viewer, range.messages, {
      ...req,
      search: searchOf(selection.narrow),
    }),
    anchor: range.anchor,
    found_anchor: range.foundAnchor,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    history_limited: false,
  };
};

/** GET /messages/{message_id}: the message object and its raw Markdown, if the user may see it (accessMessage: "Invalid message(s)"). */
export const fetchMessage = async (
  user: User,
  realm: Realm,
  messageId: number,
  opts: MessageObjectOptions,
): Promise<Record<string, unknown>> => {
  const viewer = new MessageViewer(user);
  const { message, userMessage } = await accessMessage(user, messageId, { modifying: false, viewer });
  const visible: VisibleMessage = { message, flags: userMessage?.flags ?? HISTORICAL_FLAGS, received: userMessage !== undefined };
  const [object] = await buildMessageObjects(user, realm, viewer, [visible], opts);
  return { raw_content: message.content, message: object };
};
