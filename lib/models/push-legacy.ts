// Legacy (unencrypted) mobile push notifications, as upstream still sends them to the FCM and APNs
// tokens an app registered with POST /users/me/android_gcm_reg_id and /users/me/apns_device_token
// (zerver/lib/push_notifications.py): the token checks, the user's identity at the bouncer, and the
// payloads the bouncer forwards as they are (gcm_payload, apns_payload, gcm_options). Pure.
import { createHash } from 'node:crypto';
import type { PushTrigger } from './push-notifications';

/** A legacy token's kind: the app's FCM registration token or APNs device token. */
export type LegacyTokenKind = 'fcm' | 'apns';

/** Upstream's PushDeviceToken.kind, as the bouncer's token_kind field carries it. */
export const BOUNCER_TOKEN_KIND: Record<LegacyTokenKind, number> = { apns: 1, fcm: 2 };

/** The longest token upstream accepts (validate_token). */
const MAX_TOKEN_LENGTH = 4096;

/** Python's bytes.fromhex: pairs of hex digits, ASCII whitespace allowed between the pairs. */
const HEX_BYTES = /^[ \t\n\r\f\v]*(?:[0-9a-fA-F]{2}[ \t\n\r\f\v]*)*$/;

/**
 * Upstream's validate_token: the message of the first problem with a token, or undefined. Lengths
 * count characters as Python does (code points).
 */
export const legacyTokenProblem = (token: string, kind: LegacyTokenKind): string | undefined => {
  const length = [...token].length;
  if (length === 0 || length > MAX_TOKEN_LENGTH) return 'Empty or invalid length token';
  if (kind === 'apns' && !HEX_BYTES.test(token)) return 'Invalid APNS token';
  return undefined;
};

/** Upstream's ApnsAppId: an iOS bundle id. */
export const APNS_APP_ID = /^[.a-zA-Z0-9-]+$/;

/**
 * A user's uuid at the bouncer (upstream's UserProfile.uuid, random at creation there): derived
 * here, like the organization's (realmPushIdentity), from this server's id, the organization and
 * the user, so every process finds the same one without storing it. Version-4-shaped.
 */
export const userPushUuid = (realmId: number, userId: number, server: { orgId: string }): string => {
  const hash = createHash('sha256').update(`user-uuid:${server.orgId}:${realmId}:${userId}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x40;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Upstream's get_base_payload: what every legacy payload starts with. */
export type LegacyBase = {
  server: string;
  realm_id: number;
  realm_uri: string;
  realm_url: string;
  realm_name: string;
  user_id: number;
};

export const legacyBasePayload = (realm: { id: number; name: string; url: string }, userId: number): LegacyBase => ({
  server: new URL(realm.url).host,
  realm_id: realm.id,
  realm_uri: realm.url,
  realm_url: realm.url,
  realm_name: realm.name,
  user_id: userId,
});

/** The facts of a message a legacy notification shows. */
export type LegacyMessage = {
  messageId: number;
  senderId: number;
  senderEmail: string;
  senderFullName: string;
  senderAvatarUrl: string;
  /** UNIX seconds. */
  time: number;
  /** The notification's text (pushContentOf) and whether it was cut. */
  content: string;
  contentTruncated: boolean;
} & (
  | { channelId: number; channelName: string; topic: string }
  /** A direct message: all its members, with their names (for a group's title). */
  | { members: { id: number; fullName: string }[] }
);

/** Upstream's get_message_payload: the fields both platforms' message payloads share. */
const messageFields = (base: LegacyBase, m: LegacyMessage) => ({
  ...base,
  sender_id: m.senderId,
  sender_email: m.senderEmail,
  time: m.time,
  ...('channelId' in m
    ? { recipient_type: 'stream', stream: m.channelName, stream_id: m.channelId, topic: m.topic }
    : m.members.length > 2
      ? {
          recipient_type: 'private',
          pm_users: m.members
            .map((u) => u.id)
            .sort((a, b) => a - b)
            .join(','),
        }
      : { recipient_type: 'private' }),
});

/** Upstream's get_apns_alert_title: the group's names, the channel and topic, or the sender. */
const apnsTitle = (m: LegacyMessage): string => {
  if ('channelId' in m) return `#${m.channelName} > ${m.topic}`;
  if (m.members.length > 2)
    return m.members
      .map((u) => u.fullName)
      .sort()
      .join(', ');
  return m.senderFullName;
};

/** Upstream's get_apns_alert_subtitle (mentions of a group are told as personal ones: the push job does not know the group). */
const apnsSubtitle = (m: LegacyMessage, trigger: PushTrigger): string => {
  if (trigger === 'mentioned') return `${m.senderFullName} mentioned you:`;
  if (trigger === 'wildcardMentioned') return `${m.senderFullName} mentioned everyone:`;
  if (!('channelId' in m) && m.members.length <= 2) return '';
  return `${m.senderFullName}:`;
};

/** Upstream's payloads of a new message: get_message_payload_apns and get_message_payload_gcm (with its options). */
export const legacyMessagePayloads = (base: LegacyBase, m: LegacyMessage, trigger: PushTrigger) => {
  const fields = messageFields(base, m);
  return {
    apns_payload: {
      alert: { title: apnsTitle(m), subtitle: apnsSubtitle(m, trigger), body: m.content },
      sound: 'default',
      // Upstream's get_apns_badge_count answers 0 for now.
      badge: 0,
      custom: { zulip: { ...fields, message_ids: [m.messageId] } },
    },
    gcm_payload: {
      ...fields,
      event: 'message',
      zulip_message_id: m.messageId,
      content: m.content,
      content_truncated: m.contentTruncated,
      sender_full_name: m.senderFullName,
      sender_avatar_url: m.senderAvatarUrl,
    },
    gcm_options: { priority: 'high' },
  };
};

/** The most message ids one removal carries (upstream's MAX_APNS_MESSAGE_IDS: the newest ones). */
const MAX_REMOVED_IDS = 200;

/** Upstream's get_remove_payload_gcm and get_remove_payload_apns, of the newest 200 of the messages. */
export const legacyRemovePayloads = (base: LegacyBase, messageIds: number[]) => {
  const ids = [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVED_IDS);
  const zulipMessageIds = ids.join(',');
  return {
    apns_payload: { badge: 0, custom: { zulip: { ...base, event: 'remove', zulip_message_ids: zulipMessageIds } } },
    gcm_payload: { ...base, event: 'remove', zulip_message_ids: zulipMessageIds, zulip_message_id: ids[0] },
    gcm_options: { priority: 'normal' },
  };
};
