// What a missed-message email says (upstream's zerver/lib/email_notifications.py and its
// missed_message templates) and whom a message may make one for: pure functions, no I/O.
import { escapeHtml } from './html';
import type { Subscription } from './channel';
import { wildcardMentionNotifies } from './push-notifications';
import type { UserSettings } from './user-settings';
import { VisibilityPolicy } from './user-topic';

/** Why a message is in a missed-message email (upstream's NotificationTriggers for email). */
export type EmailTrigger = 'direct' | 'mentioned' | 'wildcardMentioned' | 'followedTopic';

/**
 * Upstream's UserMessageNotificationsData.is_email_notifiable, before idleness: direct messages,
 * personal and group mentions follow enable_offline_email_notifications; a wildcard mention also
 * the channel's (or user's) wildcard_mentions_notify, or in a followed topic
 * enable_followed_topic_wildcard_mentions_notify; a followed topic's message
 * enable_followed_topic_email_notifications. A channel message needs an active subscription;
 * muting silences wildcard mentions but not personal ones, nor followed topics.
 */
export const emailTriggerFor = (
  settings: Pick<UserSettings, 'enable_offline_email_notifications' | 'enable_followed_topic_email_notifications'> &
    Parameters<typeof wildcardMentionNotifies>[0],
  reasons: { direct?: boolean; mentioned?: boolean; wildcardMentioned?: boolean },
  inChannel?: { subscription: Subscription | undefined; policy: number },
): EmailTrigger | undefined => {
  const offline = settings.enable_offline_email_notifications;
  if (reasons.direct && offline) return 'direct';
  const sub = inChannel?.subscription;
  if (!inChannel || !sub?.active || sub.isUserActive === false) return undefined;
  if (reasons.mentioned && offline) return 'mentioned';
  if (reasons.wildcardMentioned && offline && wildcardMentionNotifies(settings, sub, inChannel.policy)) return 'wildcardMentioned';
  if (inChannel.policy === VisibilityPolicy.FOLLOWED && settings.enable_followed_topic_email_notifications) return 'followedTopic';
  return undefined;
};

/** Whether a trigger is still wanted by the user's settings when the email is due (they may have changed). */
export const triggerStillWanted = (
  settings: Pick<UserSettings, 'enable_offline_email_notifications' | 'enable_followed_topic_email_notifications'>,
  trigger: EmailTrigger,
): boolean =>
  trigger === 'followedTopic' ? settings.enable_followed_topic_email_notifications : settings.enable_offline_email_notifications;

/** One message of the email: its sender's name, its Markdown and HTML. */
export type EmailMessage = { id: number; senderName: string; content: string; html: string };

/** The conversation an email is about, from the recipient's point of view. */
export type EmailConversation =
  | { kind: 'direct'; senderName: string }
  | { kind: 'group'; otherNames: string[] }
  | { kind: 'channel'; channelName: string; topic: string };

export type MissedEmailFacts = {
  conversation: EmailConversation;
  /** The missed messages and the context before them, oldest first. */
  messages: EmailMessage[];
  /** The names of those whose messages triggered the email (mentions: who mentioned). */
  senderNames: string[];
  triggers: EmailTrigger[];
  /** The group mentioned, when all mentions were of one group. */
  mentionedGroupName: string | undefined;
  realmName: string;
  realmUrl: string;
  narrowUrl: string;
  unsubscribeUrl: string;
  /** The reply address (email gateway), when replies are accepted. */
  replyTo: string | undefined;
  /** Upstream's message_content_allowed_in_missedmessage_emails: the organization's and the user's settings. */
  content: { allowed: true } | { allowed: false; byUser: boolean; byRealm: boolean };
  realmNameInSubject: boolean;
};

/** Upstream's direct_message_group_display_name: two names joined by "and", three listed, more counted. */
const groupDisplayName = (names: string[]): string => {
  if (names.length <= 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names.slice(0, 2).join(', ')}, and ${names.length - 2} others`;
};

const RESOLVED_PREFIX = '✔ ';

/** Upstream's missed_message subject. */
export const missedEmailSubject = (f: MissedEmailFacts): string => {
  let subject = 'New messages';
  if (f.content.allowed) {
    const c = f.conversation;
    if (c.kind === 'group') subject = `Group DMs with ${groupDisplayName(c.otherNames)}`;
    else if (c.kind === 'direct') subject = `DMs with ${f.senderNames.join(', ')}`;
    else if (c.topic.startsWith(RESOLVED_PREFIX)) subject = `[resolved] #${c.channelName} > ${c.topic.slice(RESOLVED_PREFIX.length)}`;
    else subject = `#${c.channelName} > ${c.topic}`;
  }
  return f.realmNameInSubject ? `${subject} [${f.realmName}]` : subject;
};

/** Why the recipient gets the email (upstream's template's closing line). */
const reasonLine = (f: MissedEmailFacts): string | undefined => {
  const t = new Set(f.triggers);
  if (t.has('mentioned') && f.mentionedGroupName === undefined) return 'You are receiving this because you were personally mentioned.';
  if (t.has('mentioned')) return `You are receiving this because @${f.mentionedGroupName} was mentioned.`;
  if (t.has('wildcardMentioned')) return 'You are receiving this because everyone was mentioned.';
  if (t.has('followedTopic')) return 'You are receiving this because you have email notifications enabled for topics you follow.';
  return undefined;
};

const contentDisabledLine = (f: MissedEmailFacts): string | undefined => {
  if (f.content.allowed) return undefined;
  return f.content.byRealm
    ? 'This email does not include message content because your organization has disabled message content in email notifications.'
    : 'This email does not include message content because you have disabled message content in email notifications.';
};

/** Upstream's sender_string: a direct message's sender is the subject already; others are named. */
const namesSender = (f: MissedEmailFacts): boolean => f.conversation.kind !== 'direct';

/** Upstream's add_quote_prefix_in_text, after the sender's name. */
const plainMessage = (m: EmailMessage, named: boolean): string => {
  const quoted = m.content
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return named ? `${m.senderName}:\n${quoted}` : quoted;
};

/** Upstream's relative_to_full_url for narrow and upload links in the rendered HTML. */
const absoluteLinks = (html: string, realmUrl: string): string =>
  html.replace(/(href|src)="\/?(#narrow\/|user_uploads\/)/g, (_, attr: string, rest: string) => `${attr}="${realmUrl}/${rest}`);

/** The email's plain text and HTML (upstream's missed_message.txt and .html). */
export const missedEmailBodies = (f: MissedEmailFacts): { text: string; html: string } => {
  const named = namesSender(f);
  const lines: string[] = [];
  const parts: string[] = [];
  const disabled = contentDisabledLine(f);
  if (disabled) {
    lines.push(disabled, '');
    parts.push(`<p>${escapeHtml(disabled)}</p>`);
  } else {
    let previous: string | undefined;
    for (const m of f.messages) {
      const showName = named && m.senderName !== previous;
      previous = m.senderName;
      lines.push(plainMessage(m, showName), '');
      parts.push(`<div class="message">${showName ? `<b>${escapeHtml(m.senderName)}</b>:` : ''}${absoluteLinks(m.html, f.realmUrl)}</div>`);
    }
  }
  const reason = reasonLine(f);
  if (reason) {
    lines.push(reason, '');
    parts.push(`<p>${escapeHtml(reason)}</p>`);
  }
  const reply = f.replyTo
    ? ['Reply to this email directly, or view it in Zulip:', f.narrowUrl]
    : ['Do not reply to this message. This Zulip server is not configured to accept incoming emails.', '', 'Reply in Zulip:', f.narrowUrl];
  lines.push(...reply, '');
  lines.push('Manage email preferences:', '', `${f.realmUrl}/#settings/notifications`, '');
  lines.push('Unsubscribe from missed message emails:', '', f.unsubscribeUrl);
  parts.push(
    `<p>${f.replyTo ? 'Reply to this email directly, or' : 'Do not reply to this message.'} <a href="${escapeHtml(f.narrowUrl)}">view it in Zulip</a>.</p>`,
    `<p><a href="${escapeHtml(`${f.realmUrl}/#settings/notifications`)}">Manage email preferences</a> | ` +
      `<a href="${escapeHtml(f.unsubscribeUrl)}">Unsubscribe from missed message emails</a></p>`,
  );
  return { text: lines.join('\n'), html: `<html><body>${parts.join('\n')}</body></html>` };
};
