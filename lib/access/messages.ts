// Who may see or act on a message, in one place for every path: upstream's has_message_access
// (MessageViewer.canSee) and access_message / access_message_and_usermessage (accessMessage), from
// zerver/lib/message.py; who holds a row of a message, and who is told of an action on one
// (event_recipient_ids_for_action_on_messages).
import { BadRequestError } from '../errors';
import type { Channel } from '../models/channel';
import type { Message, UserMessage } from '../models/message';
import { isGuest, type User } from '../models/user';
import * as channelsStore from '../store/channels';
import * as editsStore from '../store/message-edits';
import * as messagesStore from '../store/messages';
import * as usersStore from '../store/users';
import { canReadChannelMessage, loadChannelViewer, type ChannelViewer } from './channels';

/**
 * What one user may see of messages, upstream's has_message_access, asked by every path that shows
 * or acts on messages (one message: accessMessage; pages of messages: GET /messages; flags on
 * messages without a row), with the channels and the user's standing in each read once per request.
 */
export class MessageViewer {
  private readonly channels = new Map<number, Promise<Channel | undefined>>();
  private readonly viewers = new Map<number, Promise<ChannelViewer>>();

  constructor(readonly user: User) {}

  /** A channel of the viewer's organization (archived included), read once per request. */
  channel(channelId: number): Promise<Channel | undefined> {
    if (!this.channels.has(channelId)) this.channels.set(channelId, channelsStore.getChannel(this.user.realmId, channelId));
    return this.channels.get(channelId)!;
  }

  /** Keeps a channel of the viewer's organization the request read otherwise (a narrow naming it), so it is not read again. */
  knowChannel(channel: Channel): void {
    this.channels.set(channel.id, Promise.resolve(channel));
  }

  private viewerOf(channel: Channel): Promise<ChannelViewer> {
    if (!this.viewers.has(channel.id)) this.viewers.set(channel.id, loadChannelViewer(this.user, channel));
    return this.viewers.get(channel.id)!;
  }

  /**
   * Upstream's has_message_access: a message of the viewer's organization that the viewer received
   * (direct messages; `received`: the viewer has a row of it) or may read in its channel
   * (canReadChannelMessage). With `modifying` (reacting, editing, deleting), never in an archived channel.
   */
  async canSee(message: Pick<Message, 'realmId' | 'streamId'>, received: boolean, opts: { modifying?: boolean } = {}): Promise<boolean> {
    if (message.realmId !== this.user.realmId) return false;
    if (message.streamId === null) return received;
    const channel = await this.channel(message.streamId);
    if (!channel || (opts.modifying === true && channel.isArchived)) return false;
    return canReadChannelMessage(channel, await this.viewerOf(channel), received);
  }

  /** Whether the viewer may read a channel's whole history (upstream's ok_to_include_history). */
  async readsWholeHistory(channelId: number): Promise<boolean> {
    const channel = await this.channel(channelId);
    if (!channel) return false;
    return canReadChannelMessage(channel, await this.viewerOf(channel), false);
  }

  get isGuest(): boolean {
    return isGuest(this.user);
  }
}

/** A message the user may access, the user's own row of it (if they received it) and, for a channel message, the channel. */
export type AccessedMessage<M extends Message = Message> = {
  message: M;
  userMessage: UserMessage | undefined;
  channel: Channel | undefined;
};

/**
 * Upstream's access_message_and_usermessage: the message, if the user may see it
 * (MessageViewer.canSee, with `modifying` as given); anything else, another organization's
 * message included, is "Invalid message(s)". Reads the message and the user's row concurrently,
 * then (through the viewer, a new one unless the request has one) the channel and the user's
 * subscription.
 */
export const accessMessage = async <M extends Message = Message>(
  user: User,
  messageId: number,
  opts: {
    modifying: boolean;
    /** How to read the message item (an edit reads it consistently, with its history). */
    load?: (realmId: number, messageId: number) => Promise<M | undefined>;
    /** The request's viewer of `user`, whose channels later steps reuse. */
    viewer?: MessageViewer;
  },
): Promise<AccessedMessage<M>> => {
  const load = opts.load ?? (messagesStore.getMessage as (realmId: number, messageId: number) => Promise<M | undefined>);
  const viewer = opts.viewer ?? new MessageViewer(user);
  const [message, userMessage] = await Promise.all([load(user.realmId, messageId), messagesStore.getUserMessage(user.id, messageId)]);
  if (!message || !(await viewer.canSee(message, userMessage !== undefined, opts))) throw new BadRequestError('Invalid message(s)');
  const channel = message.streamId === null ? undefined : await viewer.channel(message.streamId);
  return { message, userMessage, channel };
};

type MessageRef = Pick<Message, 'realmId' | 'id' | 'streamId' | 'dmUserIds' | 'senderId'>;

/** Who may hold a row of a message stored before its recipients record existed: a direct message's participants, or the channel's subscribers and the sender (each once). */
const candidatesWithoutRecord = async (message: MessageRef): Promise<number[]> =>
  message.streamId === null
    ? message.dmUserIds
    : [...new Set([...(await channelsStore.listSubscriberIdsOfChannel(message.streamId)), message.senderId])];

/**
 * Who holds a row of a message: its recipients record (everyone it was delivered to and everyone
 * who got a row later), whether or not they are still subscribed or active. For a message stored
 * before the send wrote that record, who may hold one now (the caller reads their rows), and those
 * who got a row later.
 */
export const rowHolderCandidates = async (message: MessageRef): Promise<number[]> => {
  const { sent, later } = await messagesStore.getRowHolderRecord(message.realmId, message.id);
  return [...new Set([...(sent ?? (await candidatesWithoutRecord(message))), ...later])];
};

/**
 * Who holds a row of a message, for a caller that does not read the rows themselves: the
 * recipients record, or for a message stored before the send wrote it, those who got a row later
 * and those of the other candidates whose row is there (one batch read per 100).
 */
export const listRowHolders = async (message: MessageRef): Promise<number[]> => {
  const { sent, later } = await messagesStore.getRowHolderRecord(message.realmId, message.id);
  if (sent) return [...new Set([...sent, ...later])];
  const recorded = new Set(later);
  const others = (await candidatesWithoutRecord(message)).filter((id) => !recorded.has(id));
  return [...later, ...(await messagesStore.getRowsOfMessage(message.id, others)).map((row) => row.userId)];
};

/**
 * Who is told of an action on a message (a reaction, a delete), as upstream's
 * event_recipient_ids_for_action_on_messages, given who holds a row of it: a direct message's row
 * holders; for a channel message, its active subscribers (the subscriber index holds no
 * deactivated user) — with protected history only those with a row, in a private channel with
 * shared history all of them, and in a public channel all of them plus every non-guest with a row
 * (a former subscriber who received it, a user who starred or reacted to it), whether or not that
 * user is still active, as upstream's row query does not ask.
 */
export const messageActionAudience = async (
  message: Pick<Message, 'realmId'>,
  channel: Channel | null | undefined,
  rowHolderIds: number[],
): Promise<number[]> => {
  if (!channel) return rowHolderIds;
  const subscribers = await channelsStore.listSubscriberIdsOfChannel(channel.id);
  if (!channel.historyPublicToSubscribers) {
    const holders = new Set(rowHolderIds);
    return subscribers.filter((id) => holders.has(id));
  }
  if (channel.inviteOnly) return subscribers;
  const subscribed = new Set(subscribers);
  const others = rowHolderIds.filter((id) => !subscribed.has(id));
  const nonGuests =
    others.length === 0 ? [] : (await usersStore.getMany(message.realmId, others)).filter((u) => !isGuest(u)).map((u) => u.id);
  return [...subscribers, ...nonGuests];
};

/** A message the user may act on, with the user's row (if received) and its channel (null for a direct message). */
export type EditableMessage = { message: Message; flags: string[] | undefined; channel: Channel | null };

/**
 * How long an edit or delete waits for a message's fan-out job (well inside the function's 10 s
 * Lambda timeout; the job writes 10,000 rows in about a second on DynamoDB), and how often it looks again.
 */
const FANOUT_WAIT_MS = 5_000;
const FANOUT_POLL_MS = 50;

/**
 * accessMessage (lib/access/messages.ts, the one rule) with the message read with its edit
 * history. `modifying`: a message whose rows a fan-out job is still writing (pendingDelivery,
 * lib/actions/messages/delivery.ts) is waited for, up to FANOUT_WAIT_MS, so that an edit or a
 * delete reaches every row and precedes no recipient's `message` event.
 */
export const accessEditableMessage = async (user: User, messageId: number, opts: { modifying: boolean }): Promise<EditableMessage> => {
  const load = () => accessMessage(user, messageId, { ...opts, load: editsStore.getEditableMessage });
  let accessed = await load();
  for (
    let waited = 0;
    opts.modifying && accessed.message.pendingDelivery?.rowsWritten === false && waited < FANOUT_WAIT_MS;
    waited += FANOUT_POLL_MS
  ) {
    await new Promise((resolve) => setTimeout(resolve, FANOUT_POLL_MS));
    accessed = await load();
  }
  return { message: accessed.message, flags: accessed.userMessage?.flags, channel: accessed.channel ?? null };
};
