// The sendDigests job (upstream's enqueue_emails and DigestWorker, zerver/lib/digest.py): weekly
// digest emails to the people who have not been active for DIGEST_CUTOFF_DAYS. The day's run
// (EventBridge Scheduler's daily schedule deployed, `npm run send-digests` locally) starts one run
// per organization whose digest_weekday is today; an organization's run takes a page of its users,
// sends their digests and starts the run of the next page, so that no run goes through a whole
// organization in one Lambda invocation. Each digest is claimed for the user before it is sent
// (lib/store/digests.ts claimDigest), so a retried or repeated run sends nobody a second one.
import { randomUUID } from 'node:crypto';
import { nowSeconds } from '../../clock';
import { config } from '../../config';
import type { Channel, Subscription } from '../../models/channel';
import {
  DIGEST_RESEND_SECONDS,
  digestBodies,
  digestCutoff,
  digestSubject,
  digestTopicsOf,
  digestWeekday,
  hotTopics,
  visibleNewChannels,
  worthSending,
  type DigestFacts,
  type DigestMessage,
} from '../../models/digest';
import type { Message } from '../../models/message';
import { realmProperty, realmUrl, type Realm } from '../../models/realm';
import { isGuest, type User } from '../../models/user';
import { settingsOfUser } from '../../models/user-settings';
import { channelLink, topicLink } from '../../render/message-links';
import * as channelsStore from '../../store/channels';
import * as digestsStore from '../../store/digests';
import { sendEmail } from '../../store/emails';
import { startJob } from '../../store/jobs';
import * as messagesStore from '../../store/messages';
import { createUnsubscribeToken } from '../../store/missed-emails';
import * as presenceStore from '../../store/presence';
import * as realmsStore from '../../store/realms';
import * as usersStore from '../../store/users';
import { log } from '../../log';

/** What the sendDigests job is given: nothing for the day's run; an organization and where its users' pages stand for the rest. */
export type DigestJob = { realmId?: number; after?: number; at?: number };

/** Whether the organization sends digests on the weekday of `at`. */
const sendsDigestsOn = (realm: Realm, at: number): boolean =>
  !realm.deactivated && realmProperty(realm, 'digest_emails_enabled') && realmProperty(realm, 'digest_weekday') === digestWeekday(at);

/** The day's run: one run per organization that sends digests today. */
const startRealmRuns = async (at: number): Promise<void> => {
  for (const realm of await realmsStore.listAllForOperator())
    if (sendsDigestsOn(realm, at)) await startJob('sendDigests', { realmId: realm.id, at } satisfies DigestJob);
};

/** What one run reads once and shares among its users (upstream's per-run caches). */
type RunContext = {
  realm: Realm;
  at: number;
  cutoff: number;
  channels: Map<number, Channel>;
  newChannels: Channel[];
  messagesOf: (channelId: number) => Promise<Message[]>;
  people: Map<number, User>;
};

/** Loads the users by id that `ctx.people` lacks. */
const loadPeople = async (ctx: RunContext, ids: number[]): Promise<void> => {
  const missing = [...new Set(ids)].filter((id) => !ctx.people.has(id));
  if (missing.length === 0) return;
  for (const u of await usersStore.getManyWithSystemBots(ctx.realm.id, missing)) ctx.people.set(u.id, u);
};

/** Upstream's get_user_stream_map: the channels whose traffic a user's digest shows (subscribed, not muted). */
const digestChannelsOf = (ctx: RunContext, subs: Subscription[]): Channel[] =>
  subs.flatMap((s) => {
    const channel = ctx.channels.get(s.channelId);
    return s.active && !s.isMuted && s.isUserActive !== false && channel && !channel.isArchived ? [channel] : [];
  });

/** The period's messages of the user's channels that the user may read (a channel with protected history: only those received). */
const readableMessages = async (ctx: RunContext, user: User, channels: Channel[]): Promise<Message[]> => {
  const all: Message[] = [];
  for (const channel of channels) {
    const messages = await ctx.messagesOf(channel.id);
    if (channel.historyPublicToSubscribers || messages.length === 0) {
      all.push(...messages);
      continue;
    }
    const held = new Set(
      (
        await messagesStore.getUserMessagesByIds(
          user.id,
          messages.map((m) => m.id),
        )
      ).map((r) => r.messageId),
    );
    all.push(...messages.filter((m) => held.has(m.id)));
  }
  return all;
};

/** Upstream's get_new_messages_count: messages by people (not bots) the user received in the period. */
const newMessagesCount = async (ctx: RunContext, user: User): Promise<number> => {
  const rows = await digestsStore.listRowsOfUserSince(user.id, ctx.cutoff);
  await loadPeople(
    ctx,
    rows.flatMap((r) => (r.senderId === undefined ? [] : [r.senderId])),
  );
  return rows.filter((r) => r.senderId !== undefined && ctx.people.get(r.senderId)?.isBot === false).length;
};

/** Everything the user's digest says, its unsubscribe link aside (upstream's bulk_get_digest_context). */
const digestOf = async (ctx: RunContext, user: User): Promise<Omit<DigestFacts, 'unsubscribeUrl'>> => {
  const url = realmUrl(ctx.realm);
  const newChannels = visibleNewChannels(ctx.newChannels, ctx.cutoff, isGuest(user)).map((c) => ({
    name: c.name,
    url: channelLink(url, c),
  }));
  const base = { realmName: ctx.realm.name, realmUrl: url, newChannels };
  const byRealm = !realmProperty(ctx.realm, 'message_content_allowed_in_email_notifications');
  if (byRealm || !settingsOfUser(user).message_content_in_email_notifications)
    return { ...base, hot: [], content: { allowed: false, byRealm, newMessages: await newMessagesCount(ctx, user) } };
  const channels = digestChannelsOf(ctx, await channelsStore.listSubscriptionsOfUser(user.id));
  const messages = await readableMessages(ctx, user, channels);
  await loadPeople(
    ctx,
    messages.map((m) => m.senderId),
  );
  const digestMessages = messages.map((m): DigestMessage => ({
    id: m.id,
    channelId: m.streamId!,
    topic: m.topic,
    senderName: ctx.people.get(m.senderId)?.fullName ?? '',
    senderIsBot: ctx.people.get(m.senderId)?.isBot ?? false,
    content: m.content,
    html: m.renderedContent ?? '',
  }));
  const hot = hotTopics(digestTopicsOf(digestMessages)).map((t) => {
    const channel = ctx.channels.get(t.channelId)!;
    return {
      channelName: channel.name,
      topic: t.topic,
      url: topicLink(url, channel, t.topic),
      teaser: t.teaser,
      more: t.humanMessages - t.teaser.length,
      participants: [...t.humanSenders].sort(),
    };
  });
  return { ...base, hot, content: { allowed: true } };
};

/** Sends the user's digest unless there is nothing in it or another run has sent (or is sending) one. */
const sendDigest = async (ctx: RunContext, user: User, runId: string): Promise<boolean> => {
  const digest = await digestOf(ctx, user);
  if (!worthSending(digest)) return false;
  if (!(await digestsStore.claimDigest(user.id, runId, ctx.at, ctx.at - DIGEST_RESEND_SECONDS))) return false;
  try {
    const unsubscribe = await createUnsubscribeToken(ctx.realm.id, user.id, 'digest');
    const facts: DigestFacts = { ...digest, unsubscribeUrl: `${digest.realmUrl}/accounts/unsubscribe/digest/${unsubscribe}` };
    await sendEmail({ to: [user.email], fromName: 'Zulip Digest', subject: digestSubject(facts), ...digestBodies(facts) });
  } catch (error) {
    await digestsStore.releaseDigest(user.id, runId);
    throw error;
  }
  return true;
};

/** Upstream's _enqueue_emails_for_realm's choice: active people, not bots, who want digests and have not been active since the cutoff. */
const recipientsOf = async (realm: Realm, users: User[], cutoff: number): Promise<User[]> => {
  const wanting = users.filter((u) => u.isActive && !u.isBot && settingsOfUser(u).enable_digest_emails);
  if (wanting.length === 0) return [];
  const presences = await presenceStore.getMany(
    realm.id,
    wanting.map((u) => u.id),
  );
  const activeSince = new Set(
    presences.filter((p) => Math.max(p.lastActiveTime ?? 0, p.lastConnectedTime ?? 0) > cutoff).map((p) => p.userId),
  );
  return wanting.filter((u) => !activeSince.has(u.id));
};

/** One organization's run: a page of its users, then the next page's run. */
const sendRealmPage = async (job: DigestJob & { realmId: number }, at: number): Promise<void> => {
  const realm = await realmsStore.get(job.realmId, { consistent: true });
  if (!realm || !sendsDigestsOn(realm, at)) return;
  const page = await usersStore.listPageOfRealm(realm.id, job.after, config.digestUsersPerRun());
  const cutoff = digestCutoff(at);
  const recipients = await recipientsOf(realm, page.users, cutoff);
  if (recipients.length > 0) {
    const channels = await channelsStore.listChannelsOfRealm(realm.id);
    const cache = new Map<number, Promise<Message[]>>();
    const ctx: RunContext = {
      realm,
      at,
      cutoff,
      channels: new Map(channels.map((c) => [c.id, c])),
      newChannels: channels.filter((c) => c.dateCreated > cutoff),
      messagesOf: (channelId) => {
        if (!cache.has(channelId)) cache.set(channelId, digestsStore.listChannelMessagesSince(channelId, cutoff));
        return cache.get(channelId)!;
      },
      people: new Map(),
    };
    const runId = randomUUID();
    const sent: number[] = [];
    for (const user of recipients) if (await sendDigest(ctx, user, runId)) sent.push(user.id);
    if (sent.length > 0) log.info('digests sent', { realmId: realm.id, userIds: sent, at });
  }
  if (page.next !== undefined) await startJob('sendDigests', { realmId: realm.id, after: page.next, at } satisfies DigestJob);
};

/**
 * The sendDigests job's run. Without an organization (the day's run): starts a run for each
 * organization, not deactivated, with digest_emails_enabled, whose digest_weekday is today (UTC).
 * With one: reads a page of its users (config.digestUsersPerRun, 100); leaves out deactivated users, bots,
 * those with enable_digest_emails off and those active (presence) in the last DIGEST_CUTOFF_DAYS;
 * sends each of the rest a digest when it has something in it (hot conversations of their
 * unmuted channels, new channels they may see, or, with message content hidden, new messages)
 * and no digest went to them in the last 12 hours; then starts the next page's run.
 */
export const doSendDigests = async (job: DigestJob): Promise<void> => {
  const at = job.at ?? nowSeconds();
  if (job.realmId === undefined) return startRealmRuns(at);
  return sendRealmPage({ ...job, realmId: job.realmId }, at);
};
