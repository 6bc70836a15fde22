// Moving messages to another topic or channel (upstream's do_update_message for a topic or
// channel change): the request's batch and the messageMove job's runs, who gains and loses the
// messages, and the end of a move (topic policies, Notification Bot's notices).
import { RealmGroups } from '../../access/user-groups';
import { mapLimited } from '../../concurrency';
import { BadRequestError } from '../../errors';
import type { Channel } from '../../models/channel';
import type { Message } from '../../models/message';
import type { DeleteMessageEvent } from '../../models/event';
import { type EditHistoryEntry, type PropagateMode } from '../../models/message-edit';
import type { Realm } from '../../models/realm';
import type { User } from '../../models/user';
import { type TopicLink } from '../../render';
import { sendMessagesMovedNotices } from '../channels/notices';
import { config } from '../../config';
import { startJob } from '../../store/jobs';
import * as realmsStore from '../../store/realms';
import { doMoveTopicPolicies } from '../channels/user-topics';
import * as channelsStore from '../../store/channels';
import { rowHolderCandidates } from '../../access/messages';
import * as editsStore from '../../store/message-edits';
import * as messagesStore from '../../store/messages';
import * as usersStore from '../../store/users';
import { sendDeleteMessageEvents } from './delete';
import { type RenderedEdit, type UpdatePlan, writeEditOf, updateEventOf, sendUpdateEvent, setMentionFlags } from './edit-writes';
import { log } from '../../log';

/** How many moved messages one batch (the request's or a messageMove run's) writes at a time (their rows, then their items). */
const MOVE_CONCURRENCY = 16;

/** What every batch of a move knows: the request's and each run of its messageMove job's. */
type MoveContext = {
  realm: Realm;
  editor: User;
  /** The message the edit names, as the request read it (before it moved): the events' message_id. */
  message: Message;
  /** The channel the messages leave. */
  channel: Channel;
  /** The channel they move to, or null when they stay in theirs. */
  destination: Channel | null;
  origTopic: string;
  /** The new topic, or undefined when it does not change. */
  topic: string | undefined;
  topicLinks: TopicLink[];
  propagateMode: PropagateMode;
  resolveToggle: boolean;
  notifyNewTopic: boolean;
  notifyOldTopic: boolean;
  now: number;
  /** Before anything moved: whether the new topic had messages of its own (the topic policies merge then). */
  targetHadMessages: boolean;
  /** Before anything moved: whether it had messages the editor may read (the notices' wording). */
  newTopicHadMessages: boolean;
};

/** The fields of a move's context that a job payload carries as they are (the rest go by id). */
const PLAIN_MOVE_FIELDS = [
  'origTopic',
  'topicLinks',
  'propagateMode',
  'resolveToggle',
  'notifyNewTopic',
  'notifyOldTopic',
  'now',
  'targetHadMessages',
  'newTopicHadMessages',
] as const;
type PlainMoveFields = (typeof PLAIN_MOVE_FIELDS)[number];

/** The plain fields of a move's context (or of its job's payload), copied. */
const plainMoveFields = (from: Pick<MoveContext, PlainMoveFields>): Pick<MoveContext, PlainMoveFields> =>
  Object.fromEntries(PLAIN_MOVE_FIELDS.map((k) => [k, from[k]])) as Pick<MoveContext, PlainMoveFields>;

/** What the messageMove job is given: the move's context by ids, and which messages are left for it. */
export type MoveJob = Pick<MoveContext, PlainMoveFields> & {
  realmId: number;
  editorId: number;
  messageId: number;
  channelId: number;
  destinationId: number | null;
  topic: string | null;
  /**
   * What is left: the messages still in the old channel and topic (inOldConversation) with ids
   * from firstId to lastId, only those the editor received when receivedOnly. Each run reads them
   * again, so a retried run finds what an earlier attempt moved gone.
   */
  firstId: number;
  lastId: number;
  receivedOnly: boolean;
  /** How many messages the whole move takes: the count Notification Bot's notices give. */
  total: number;
};

/** Whether a message is still where a move takes it from (not moved yet, by this move or another). */
const inOldConversation = (ctx: MoveContext, m: Message): boolean =>
  m.streamId === ctx.channel.id &&
  m.topic.toLowerCase() === ctx.origTopic.toLowerCase() &&
  !(ctx.destination === null && ctx.topic !== undefined && m.topic === ctx.topic);

/**
 * A move of a topic's messages (or one message) within a channel or to another. The request moves
 * the edited message and, of a larger move, up to config.moveInlineMessages of the others
 * (MOVE_INLINE_MESSAGES, so it stays well inside its 10 s timeout: docs/data-model.md, "Moving a
 * topic"); the messageMove job (doMessageMove) moves the rest, config.moveJobMessages per run,
 * each run starting the next. Every batch is moveBatch; the last one also moves the topic policies
 * and posts the notices.
 */
export const doMoveMessages = async (realm: Realm, editor: User, plan: UpdatePlan): Promise<void> => {
  const { message, destination, topic } = plan;
  const channel = plan.channel!;
  const target = destination ?? channel;
  const targetTopic = topic ?? message.topic;
  // Before anything moves: whether the new topic has messages of its own, and ones the editor sees.
  const [targetHadMessages, newTopicHadMessages] = await Promise.all([
    editsStore.hasTopicMessagesOtherThan(target.id, targetTopic, plan.movedIds),
    hasVisibleMessages(editor, target, targetTopic, plan.movedIds),
  ]);
  const ctx: MoveContext = {
    realm,
    editor,
    message,
    channel,
    destination,
    origTopic: message.topic,
    topic,
    topicLinks: plan.topicLinks,
    propagateMode: plan.propagateMode,
    resolveToggle: plan.resolveToggle,
    notifyNewTopic: plan.notifyNewTopic,
    notifyOldTopic: plan.notifyOldTopic,
    now: plan.now,
    targetHadMessages,
    newTopicHadMessages,
  };
  const others = plan.movedIds.filter((id) => id !== message.id);
  const inline = others.slice(0, config.moveInlineMessages() - 1);
  const rest = others.slice(inline.length);
  const batch = [message, ...(await editsStore.getEditableMessages(realm.id, inline)).filter((m) => inOldConversation(ctx, m))];
  const { movedIds, finishing } = await moveBatch(ctx, batch, { rendered: plan.rendered, last: rest.length === 0 });
  if (finishing) {
    await finishMove(ctx, movedIds, movedIds.length);
    return;
  }
  const job: MoveJob = {
    ...plainMoveFields(ctx),
    realmId: realm.id,
    editorId: editor.id,
    messageId: message.id,
    channelId: channel.id,
    destinationId: destination?.id ?? null,
    topic: topic ?? null,
    firstId: rest[0],
    lastId: rest[rest.length - 1],
    receivedOnly: plan.receivedOnly,
    total: plan.movedIds.length,
  };
  await startJob('messageMove', job);
};

/**
 * The messageMove job: one batch of what a move left (MoveJob), then the next run for the rest,
 * or, after the last batch, the move's end (finishMove) once, claimed by a marker
 * (editsStore.claimMoveFinish) so that a retried or replayed run does not post the notices again.
 * Idempotent: a run reads what is left from the old topic itself, so a retry moves only what an
 * earlier attempt did not, and sends events only for what it moved.
 */
export const doMessageMove = async (job: MoveJob): Promise<void> => {
  const [realm, editor, channel, destination, message] = await Promise.all([
    realmsStore.get(job.realmId),
    usersStore.get(job.realmId, job.editorId),
    channelsStore.getChannel(job.realmId, job.channelId),
    job.destinationId === null ? Promise.resolve(null) : channelsStore.getChannel(job.realmId, job.destinationId),
    editsStore.getEditableMessage(job.realmId, job.messageId),
  ]);
  if (!realm || !editor || !channel || destination === undefined) {
    // The organization, the editor or a channel is gone: nothing left to move it by.
    log.warn('message move abandoned: its context is gone', { job: { ...job, topicLinks: undefined } });
    return;
  }
  const ctx: MoveContext = {
    realm,
    editor,
    // The events name the edited message as it was before the move. Deleted since, it has no rows:
    // the batches' updates then reach only the channels' subscribers (shared history).
    message: {
      ...(message ?? { id: job.messageId, realmId: realm.id, senderId: editor.id, dmUserIds: [], content: '', dateSent: job.now }),
      streamId: channel.id,
      topic: job.origTopic,
    },
    channel,
    destination,
    ...plainMoveFields(job),
    topic: job.topic ?? undefined,
  };
  let candidates = (await editsStore.listMessageIdsOfTopic(channel.id, job.origTopic)).filter(
    (id) => id >= job.firstId && id <= job.lastId,
  );
  if (job.receivedOnly) {
    const received = new Set((await messagesStore.getUserMessagesByIds(editor.id, candidates)).map((r) => r.messageId));
    candidates = candidates.filter((id) => received.has(id));
  }
  // The topic index may still list messages just moved: each is read again, consistently.
  const size = config.moveJobMessages();
  const batch: Message[] = [];
  let examined = 0;
  while (batch.length < size && examined < candidates.length) {
    const chunk = candidates.slice(examined, examined + size - batch.length);
    examined += chunk.length;
    batch.push(...(await editsStore.getEditableMessages(realm.id, chunk)).filter((m) => inOldConversation(ctx, m)));
  }
  const more = examined < candidates.length;
  const { movedIds, finishing } = await moveBatch(ctx, batch, {
    last: !more,
    claim: () => editsStore.claimMoveFinish(realm.id, job.messageId, job.now),
  });
  if (more) {
    await startJob('messageMove', job);
    return;
  }
  if (finishing) await finishMove(ctx, movedIds, job.total);
};

/**
 * Moves one batch of a move: the messages' items (the topic and channel, a history entry each:
 * `prev_topic`/`topic`, `prev_stream`/`stream`), the rows' conversation (the unread summary and
 * the narrows read it) and, after a content edit, their mention flags; the old and new topics'
 * summaries. A move to another channel also removes the rows of users who were subscribed to the
 * old channel and are not to the new one, and into a channel with protected history gives its
 * subscribers read rows (moveAudience). `batch`: the items as read, still in the old conversation;
 * the edited message first in the request's batch, written first with its content (refused with
 * "Invalid message(s)" when gone). The rows of the others move before their items, so a retried
 * job run (which reads the items to know what is left) finishes a batch an earlier attempt left
 * half done. Emits, in upstream's order: `delete_message` to the users who lose access; with
 * `last`, the topic policies' events when the whole topic moved (before the update, as upstream);
 * `update_message` for the batch to every holder of a row of the edited message who keeps it and,
 * for channels whose history subscribers share, every subscriber of the new channel and of the old
 * one (with `["read"]` when they have no row), each with their own flags. Returns the ids moved,
 * and whether the move ends here (`last`, and `claim` won when given): the caller then posts the notices.
 */
const moveBatch = async (
  ctx: MoveContext,
  batch: Message[],
  opts: { rendered?: RenderedEdit; last: boolean; claim?: () => Promise<boolean> },
): Promise<{ movedIds: number[]; finishing: boolean }> => {
  const { realm, editor, message, channel, destination, topic, rendered } = { ...ctx, rendered: opts.rendered };
  const realmId = realm.id;
  const target = destination ?? channel;
  const targetTopic = topic ?? ctx.origTopic;
  const moveFields = (m: Message) => ({
    fields: {
      ...(topic !== undefined ? { topic, topicLinks: ctx.topicLinks } : {}),
      ...(destination !== null ? { streamId: destination.id } : {}),
    },
    entry: {
      user_id: editor.id,
      timestamp: ctx.now,
      ...(topic !== undefined ? { prev_topic: m.topic, topic } : {}),
      ...(destination !== null && m.streamId !== null ? { prev_stream: m.streamId, stream: destination.id } : {}),
    },
  });
  const withEdited = batch[0]?.id === message.id;
  if (withEdited) {
    const written = await writeEditOf(realmId, batch[0], (m) => {
      const { fields, entry } = moveFields(m);
      if (rendered) {
        Object.assign(entry, { prev_content: m.content, prev_rendered_content: m.renderedContent ?? '' });
        Object.assign(fields, { content: rendered.content, renderedContent: rendered.html, hasLink: rendered.hasLink });
      }
      return { fields, entry: entry as EditHistoryEntry };
    });
    if (!written) throw new BadRequestError('Invalid message(s)');
  }
  // Each message as it is once moved (its topic keeps its own spelling when only the channel changes).
  const movedOf = (m: Message): Message => ({ ...m, topic: topic ?? m.topic, streamId: target.id });

  const rowsByMessage = new Map(
    await mapLimited(
      batch,
      MOVE_CONCURRENCY,
      async (m) => [m.id, await editsStore.listRowsOfMessage(m.id, await rowHolderCandidates(m))] as const,
    ),
  );
  const audience =
    destination !== null
      ? await moveAudience(realmId, channel, destination, [...new Set([...rowsByMessage.values()].flat().map((r) => r.userId))])
      : undefined;
  await mapLimited(batch, MOVE_CONCURRENCY, async (m) => {
    const holders = rowsByMessage.get(m.id)!.map((r) => r.userId);
    const kept = audience ? holders.filter((u) => !audience.losingRows.has(u)) : holders;
    await editsStore.setTopicOfRows(m.id, kept, movedOf(m).topic, destination?.id);
    if (audience) {
      await editsStore.deleteRowsOfMessage(
        m.id,
        holders.filter((u) => audience.losingRows.has(u)),
      );
      const had = new Set(holders);
      await editsStore.addReadRows(
        movedOf(m),
        audience.gainingRows.filter((u) => !had.has(u)),
      );
    }
  });
  const written = new Set(withEdited ? [message.id] : []);
  await mapLimited(withEdited ? batch.slice(1) : batch, MOVE_CONCURRENCY, async (m) => {
    const done = await writeEditOf(
      realmId,
      m,
      (current) => {
        const { fields, entry } = moveFields(current);
        return { fields, entry: entry as EditHistoryEntry };
      },
      (current) => inOldConversation(ctx, current),
    );
    if (done) written.add(m.id);
  });
  const movedIds = batch
    .map((m) => m.id)
    .filter((id) => written.has(id))
    .sort((a, b) => a - b);
  if (movedIds.length > 0) {
    await editsStore.moveTopicSummary(realmId, channel.id, ctx.origTopic, targetTopic, movedIds, target.id);
    if (!target.historyPublicToSubscribers) {
      // Each holder's own summary of the new topic (the topics endpoint of a protected channel reads those).
      const holders = new Set([...rowsByMessage.values()].flat().map((r) => r.userId));
      for (const id of audience?.losingRows ?? []) holders.delete(id);
      for (const id of audience?.gainingRows ?? []) holders.add(id);
      await messagesStore.raiseReceivedTopics(realmId, [...holders], {
        channelId: target.id,
        topic: targetTopic,
        maxMessageId: Math.max(...movedIds),
      });
    }
  }
  // Each receiver's flags of the edited message (read again in a job's batch, which does not hold it).
  const editedRows = withEdited
    ? rowsByMessage.get(message.id)!
    : await editsStore.listRowsOfMessage(message.id, await rowHolderCandidates(message));
  let flagsOf = new Map(editedRows.filter((r) => !audience?.losingRows.has(r.userId)).map((r) => [r.userId, r.flags]));
  if (rendered && withEdited) flagsOf = await setMentionFlags(message, flagsOf, rendered);

  if (audience && audience.losingAccess.length > 0 && movedIds.length > 0) {
    const removed: DeleteMessageEvent = {
      type: 'delete_message',
      message_ids: movedIds,
      message_type: 'stream',
      stream_id: channel.id,
      topic: ctx.origTopic,
    };
    await sendDeleteMessageEvents(realmId, removed, audience.losingAccess);
  }
  // The move's end happens once: a job's last run claims it (a retried or replayed run finds it claimed).
  const finishing = opts.last && (opts.claim ? await opts.claim() : true);
  if (finishing) await moveTopicPolicies(ctx, movedIds, audience?.losingAccess ?? []);
  if (movedIds.length === 0) return { movedIds, finishing };
  await sendUpdateEvent(
    realmId,
    updateEventOf(editor, ctx.now, message, channel, movedIds, ctx, withEdited ? rendered : undefined),
    flagsOf,
    channel,
    audience?.notifiedSubscribers,
  );
  return { movedIds, finishing };
};

/**
 * Whether every message of the old topic the editor could see moved (upstream's
 * moved_all_visible_messages): with change_all, or when none is left besides `lastIds` (the last
 * batch, which the topic index may still list).
 */
const movedAllVisible = async (ctx: MoveContext, lastIds: number[]): Promise<boolean> =>
  ctx.propagateMode === 'change_all' || !(await hasVisibleMessages(ctx.editor, ctx.channel, ctx.origTopic, lastIds));

/** After the last batch, before its update: the topic policies follow the topic when it moved whole. */
const moveTopicPolicies = async (ctx: MoveContext, lastIds: number[], losingAccess: number[]): Promise<void> => {
  if (!(await movedAllVisible(ctx, lastIds))) return;
  await doMoveTopicPolicies(ctx.realm.id, {
    from: { channel: ctx.channel, topic: ctx.origTopic },
    to: { channel: ctx.destination ?? ctx.channel, topic: ctx.topic ?? ctx.origTopic },
    targetHadMessages: ctx.targetHadMessages,
    losingAccess: new Set(losingAccess),
  });
};

/** The end of a move, after its last batch's update: Notification Bot's notices, with the whole move's count. */
const finishMove = async (ctx: MoveContext, lastIds: number[], movedCount: number): Promise<void> => {
  await sendMessagesMovedNotices(ctx.realm, {
    actingUser: ctx.editor,
    messageId: ctx.message.id,
    from: { channel: ctx.channel, topic: ctx.origTopic },
    to: { channel: ctx.destination ?? ctx.channel, topic: ctx.topic ?? ctx.origTopic },
    movedCount,
    movedAll: await movedAllVisible(ctx, lastIds),
    newTopicHadMessages: ctx.newTopicHadMessages,
    toNewTopic: ctx.notifyNewTopic && (ctx.destination !== null || (ctx.topic !== undefined && !ctx.resolveToggle)),
    toOldTopic: ctx.notifyOldTopic,
  });
};

/**
 * The messageMove run an entry of the delivery dead-letter queue holds (Lambda's record of a run
 * that failed every attempt: its payload is requestPayload), or undefined for a delivery's entry.
 */
export const moveJobOfDeadLetter = (body: string): MoveJob | undefined => {
  const payload = (JSON.parse(body) as { requestPayload?: Partial<MoveJob> }).requestPayload;
  return payload && typeof payload.editorId === 'number' && typeof payload.firstId === 'number' ? (payload as MoveJob) : undefined;
};

/**
 * Whether a topic has messages other than `excludeIds` that the user may read: any, in a channel
 * whose history the user may read; with protected history, only those they received.
 */
const hasVisibleMessages = async (user: User, channel: Channel, topic: string, excludeIds: number[]): Promise<boolean> => {
  const excluded = new Set(excludeIds);
  const ids = (await editsStore.listMessageIdsOfTopic(channel.id, topic)).filter((id) => !excluded.has(id));
  if (ids.length === 0) return false;
  if (channel.historyPublicToSubscribers) return true;
  return (await messagesStore.getUserMessagesByIds(user.id, ids)).length > 0;
};

type MoveAudience = {
  /** Row holders whose rows go: subscribed to the old channel (now or before) and not to the new one. */
  losingRows: Set<number>;
  /** Who is told the messages are deleted: those of losingRows who may not read the new channel. */
  losingAccess: number[];
  /** Who gets a read row: the new channel's subscribers, when its history is protected. */
  gainingRows: number[];
  /** The subscribers told of the move without a row (shared-history old channel). */
  notifiedSubscribers: number[];
};

/**
 * Who a move from `source` to `destination` takes the messages from and gives them to, as
 * upstream's do_update_message decides. Upstream's "every subscription of the old channel, active
 * or not" is here its active subscribers and the row holders with any subscription row of it
 * (one batch read of their old and new subscriptions); a deactivated user still subscribed to the
 * new channel keeps their rows. A move to a public channel takes access only from guests; to a
 * private one from everyone not subscribed to it. Into protected history, every current
 * subscriber gets a row. Guests subscribed to the new channel but not the old one are not told.
 */
const moveAudience = async (realmId: number, source: Channel, destination: Channel, holderIds: number[]): Promise<MoveAudience> => {
  const [oldSubs, newSubs] = await Promise.all([
    channelsStore.listSubscriberIdsOfChannel(source.id),
    channelsStore.listSubscriberIdsOfChannel(destination.id),
  ]);
  const oldActive = new Set(oldSubs);
  const newActive = new Set(newSubs);
  const unknown = holderIds.filter((id) => !oldActive.has(id) && !newActive.has(id));
  const [oldRows, newRows] = await Promise.all([
    channelsStore.getSubscriptionsOfUsers(source.id, unknown),
    channelsStore.getSubscriptionsOfUsers(destination.id, unknown),
  ]);
  const oldAll = new Set([...oldSubs, ...oldRows.map((s) => s.userId)]);
  const newCurrent = new Set([...newSubs, ...newRows.filter((s) => s.active).map((s) => s.userId)]);
  const losing = [...oldAll].filter((id) => !newCurrent.has(id));
  // Who is a guest, from the role groups (in role:everyone, not in role:members), without reading users.
  const groups = await RealmGroups.load(realmId);
  const [everyone, members] = [groups.systemGroup('role:everyone').id, groups.systemGroup('role:members').id];
  const isGuestId = (id: number) => groups.isMember(everyone, id) && !groups.isMember(members, id);
  const losingAccess = destination.inviteOnly ? losing : losing.filter(isGuestId);
  const lost = new Set(losingAccess);
  const newOnlyGuests = new Set(newSubs.filter((id) => !oldActive.has(id) && isGuestId(id)));
  const notifiedSubscribers = [
    ...newSubs.filter((id) => !lost.has(id) && !newOnlyGuests.has(id)),
    ...oldSubs.filter((id) => !newActive.has(id) && !lost.has(id)),
  ];
  return {
    losingRows: new Set(losing),
    losingAccess: losingAccess.sort((a, b) => a - b),
    gainingRows: destination.historyPublicToSubscribers ? [] : [...newCurrent].sort((a, b) => a - b),
    notifiedSubscribers,
  };
};
