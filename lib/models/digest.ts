// What a weekly digest email says and whom it goes to (upstream's zerver/lib/digest.py and its
// digest templates): the busiest topics of the reader's channels since the cutoff, the channels
// created since then that the reader may see, or, when message content is hidden in emails, how
// many new messages the reader has. Pure functions, no I/O (lib/actions/digests/ reads and sends).
import { escapeHtml } from './html';
import type { Channel } from './channel';

/** Upstream's DIGEST_CUTOFF: a digest covers, and is sent to people inactive for, the last 5 days. */
const DIGEST_CUTOFF_DAYS = 5;
/** Upstream's MAX_HOT_TOPICS_TO_BE_INCLUDED_IN_DIGEST. */
const MAX_HOT_TOPICS = 4;
/** Upstream's DigestTopic keeps the first 2 messages of a topic as its teaser. */
const TEASER_MESSAGES = 2;
/** A second digest within this time is never sent (upstream's 12-hour look at its audit log). */
export const DIGEST_RESEND_SECONDS = 12 * 3600;

/** Upstream's Realm.DIGEST_WEEKDAY_VALUES: Monday is 0, as Python's weekday(). */
export const DIGEST_WEEKDAY_VALUES = [0, 1, 2, 3, 4, 5, 6] as const;

/** Today's weekday (UTC) in upstream's numbering: Monday 0 … Sunday 6. */
export const digestWeekday = (nowSeconds: number): number => (new Date(nowSeconds * 1000).getUTCDay() + 6) % 7;

/** The start of the period a digest covers. */
export const digestCutoff = (nowSeconds: number): number => nowSeconds - DIGEST_CUTOFF_DAYS * 86_400;

/** A message as the digest counts it: its sender's name and whether the sender is a bot. */
export type DigestMessage = {
  id: number;
  channelId: number;
  topic: string;
  senderName: string;
  senderIsBot: boolean;
  content: string;
  /** The rendered content (the HTML part shows it). */
  html: string;
};

/** A topic's traffic in the period (upstream's DigestTopic). */
export type DigestTopic = {
  channelId: number;
  topic: string;
  /** The first messages of the period, whoever sent them. */
  teaser: DigestMessage[];
  /** Messages by people (not bots). */
  humanMessages: number;
  /** Their senders' names. */
  humanSenders: Set<string>;
};

/** The topics of `messages` (oldest first), by channel and topic name. */
export const digestTopicsOf = (messages: DigestMessage[]): DigestTopic[] => {
  const byKey = new Map<string, DigestTopic>();
  for (const m of [...messages].sort((a, b) => a.id - b.id)) {
    const key = `${m.channelId}\0${m.topic.toLowerCase()}`;
    let topic = byKey.get(key);
    if (!topic) byKey.set(key, (topic = { channelId: m.channelId, topic: m.topic, teaser: [], humanMessages: 0, humanSenders: new Set() }));
    if (topic.teaser.length < TEASER_MESSAGES) topic.teaser.push(m);
    if (!m.senderIsBot) {
      topic.humanMessages += 1;
      topic.humanSenders.add(m.senderName);
    }
  }
  return [...byKey.values()];
};

/**
 * Upstream's get_hot_topics: the two topics with the most different human senders, then the
 * longest (most human messages) until there are MAX_HOT_TOPICS. Ties keep the earlier topic first.
 */
export const hotTopics = (topics: DigestTopic[]): DigestTopic[] => {
  const by = (score: (t: DigestTopic) => number): DigestTopic[] =>
    topics
      .map((t, i) => ({ t, i }))
      .sort((a, b) => score(b.t) - score(a.t) || a.i - b.i)
      .map(({ t }) => t);
  const hot = by((t) => t.humanSenders.size).slice(0, 2);
  for (const t of by((t) => t.humanMessages)) {
    if (hot.length >= MAX_HOT_TOPICS) break;
    if (!hot.includes(t)) hot.push(t);
  }
  return hot;
};

/** Upstream's gather_new_streams: the new channels a reader is told of (public ones; web-public ones only for a guest). */
export const visibleNewChannels = (channels: Channel[], cutoff: number, isGuest: boolean): Channel[] =>
  channels.filter((c) => !c.isArchived && c.dateCreated > cutoff && (isGuest ? c.isWebPublic : !c.inviteOnly)).sort((a, b) => a.id - b.id);

/** Everything one reader's digest says. */
export type DigestFacts = {
  realmName: string;
  realmUrl: string;
  /** Empty when message content is hidden (then newMessages counts instead). */
  hot: { channelName: string; topic: string; url: string; teaser: DigestMessage[]; more: number; participants: string[] }[];
  newChannels: { name: string; url: string }[];
  content: { allowed: true } | { allowed: false; byRealm: boolean; newMessages: number };
  unsubscribeUrl: string;
};

/** Upstream's enough_traffic: a digest with nothing new in it is not sent. */
export const worthSending = (f: Pick<DigestFacts, 'hot' | 'newChannels' | 'content'>): boolean =>
  f.newChannels.length > 0 || (f.content.allowed ? f.hot.length > 0 : f.content.newMessages > 0);

/** Upstream's display_list: "A", "A and B", "A, B and C", "A, B, C, D and 2 others". */
const displayList = (values: string[], limit: number): string => {
  if (values.length <= 1) return values.join('');
  if (values.length <= limit) return `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
  const others = values.length - limit;
  return `${values.slice(0, limit).join(', ')} and ${others} other${others === 1 ? '' : 's'}`;
};

/** Upstream's digest.subject.txt. */
export const digestSubject = (f: DigestFacts): string => `Zulip digest for ${f.realmName}`;

const moreLine = (h: DigestFacts['hot'][number]): string | undefined =>
  h.more > 0 ? `+ ${h.more} more message${h.more === 1 ? '' : 's'} by ${displayList(h.participants, 4)}.` : undefined;

const hiddenLines = (f: DigestFacts, c: { byRealm: boolean; newMessages: number }): string[] => {
  const channels = f.newChannels.length;
  const count =
    c.newMessages > 0 && channels > 0
      ? `You have ${c.newMessages} new messages, and there are ${channels} new channels in ${f.realmName}.`
      : c.newMessages > 0
        ? `You have ${c.newMessages} new messages in ${f.realmName}.`
        : `There are ${channels} new channels in ${f.realmName}.`;
  const why = c.byRealm
    ? `This email does not include message content because your organization hides message content in email notifications. See ${f.realmUrl}/help/hide-message-content-in-emails for more details.`
    : `This email does not include message content because you have chosen to hide message content in email notifications. See ${f.realmUrl}/help/email-notifications#hide-message-content for more details.`;
  return [count, why];
};

/** The email's plain text and HTML (upstream's digest.txt and digest.html). */
export const digestBodies = (f: DigestFacts): { text: string; html: string } => {
  const lines: string[] = [];
  const parts: string[] = [];
  if (f.content.allowed) {
    for (const h of f.hot) {
      lines.push(`#${h.channelName} > ${h.topic}`, '');
      parts.push(`<h3><a href="${escapeHtml(h.url)}">#${escapeHtml(h.channelName)} &gt; ${escapeHtml(h.topic)}</a></h3>`);
      for (const m of h.teaser) {
        lines.push(`${m.senderName}:`, ...m.content.split('\n').map((l) => `> ${l}`), '');
        parts.push(`<div class="message"><b>${escapeHtml(m.senderName)}</b>: ${m.html}</div>`);
      }
      const more = moreLine(h);
      if (more) lines.push(more, '');
      if (more) parts.push(`<p>${escapeHtml(more)}</p>`);
    }
    if (f.newChannels.length > 0) {
      lines.push(
        '** New channels **',
        `    ${displayList(
          f.newChannels.map((c) => c.name),
          1000,
        )}.`,
        '',
      );
      parts.push(
        `<h3>New channels</h3><p>${f.newChannels.map((c) => `<a href="${escapeHtml(c.url)}">${escapeHtml(c.name)}</a>`).join(', ')}</p>`,
      );
    }
  } else {
    const hidden = hiddenLines(f, f.content);
    lines.push(...hidden.flatMap((l) => [l, '']));
    parts.push(...hidden.map((l) => `<p>${escapeHtml(l)}</p>`));
  }
  lines.push(
    `Log in to Zulip to catch up: ${f.realmUrl}.`,
    '',
    '--',
    'Manage email preferences:',
    '',
    `${f.realmUrl}/#settings/notifications`,
    '',
  );
  lines.push('Unsubscribe from digest emails:', '', f.unsubscribeUrl);
  parts.push(
    `<p><a href="${escapeHtml(f.realmUrl)}">Log in to Zulip to catch up</a>.</p>`,
    `<p><a href="${escapeHtml(`${f.realmUrl}/#settings/notifications`)}">Manage email preferences</a> | ` +
      `<a href="${escapeHtml(f.unsubscribeUrl)}">Unsubscribe from digest emails</a></p>`,
  );
  return { text: lines.join('\n'), html: `<html><body>${parts.join('\n')}</body></html>` };
};
