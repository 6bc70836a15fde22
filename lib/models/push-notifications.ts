// End-to-end encrypted mobile push notifications (upstream's api/mobile-notifications): the keys
// and token ids the app registers, the JSON payloads it decrypts, and their encryption. Pure.
import { createHash, createHmac } from 'node:crypto';
import nacl from 'tweetnacl';
import type { Subscription } from './channel';
import type { UserSettings } from './user-settings';
import { VisibilityPolicy } from './user-topic';

/** The first byte of a push key that names libsodium's secretbox (XSalsa20-Poly1305), the only cryptosystem upstream supports. */
const SECRETBOX_PUSH_KEY = 0x31;

/** Python's base64.b64decode(s, validate=True): the standard alphabet, padded; undefined otherwise. */
const strictBase64 = (value: string): Buffer | undefined =>
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value) ? Buffer.from(value, 'base64') : undefined;

/** Upstream's check_push_key: base64 of 0x31 and a 32-byte key, else undefined ("Invalid `push_key`"). */
export const parsePushKey = (value: string): Buffer | undefined => {
  const bytes = strictBase64(value);
  return bytes && bytes.length === 33 && bytes[0] === SECRETBOX_PUSH_KEY ? bytes : undefined;
};

/**
 * A token id as upstream stores it (a signed 64-bit integer read big-endian from the client's
 * base64) and answers it (those 8 bytes in base64): the canonical form, so that the same token
 * compares equal however the client padded it. Undefined when it is not base64 or longer than 8 bytes.
 */
export const canonicalTokenId = (value: string): string | undefined => {
  const bytes = strictBase64(value);
  if (!bytes || bytes.length > 8) return undefined;
  const out = Buffer.alloc(8, bytes.length > 0 && bytes[0] >= 0x80 ? 0xff : 0x00);
  bytes.copy(out, 8 - bytes.length);
  return out.toString('base64');
};

/**
 * Encrypts a payload for a device with its push key (as parsePushKey accepts it): libsodium's
 * crypto_secretbox_easy under a fresh random nonce, sent as base64 of the nonce followed by the
 * ciphertext (PyNaCl's SecretBox.encrypt output, which upstream sends as `encrypted_data`).
 */
export const encryptPushPayload = (payload: unknown, pushKey: string): string => {
  const key = parsePushKey(pushKey);
  if (!key) throw new Error('a stored push key is not a secretbox key');
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(new Uint8Array(Buffer.from(JSON.stringify(payload))), nonce, new Uint8Array(key.subarray(1)));
  return Buffer.concat([Buffer.from(nonce), Buffer.from(box)]).toString('base64');
};

/** Opens what encryptPushPayload made (the app's side; the tests' bouncer uses it to check payloads). */
export const decryptPushPayload = (encrypted: string, pushKey: string): unknown => {
  const key = parsePushKey(pushKey);
  const bytes = strictBase64(encrypted);
  if (!key || !bytes || bytes.length < nacl.secretbox.nonceLength) return undefined;
  const opened = nacl.secretbox.open(
    new Uint8Array(bytes.subarray(nacl.secretbox.nonceLength)),
    new Uint8Array(bytes.subarray(0, nacl.secretbox.nonceLength)),
    new Uint8Array(key.subarray(1)),
  );
  return opened ? JSON.parse(Buffer.from(opened).toString()) : undefined;
};

/** What every payload starts with: the organization and the recipient. */
export type PushBase = { realm_name: string; realm_url: string; user_id: number };

/** The facts of a message a notification shows (upstream's get_message_payload and get_apns_alert_*). */
export type PushMessage = {
  messageId: number;
  senderId: number;
  senderFullName: string;
  senderAvatarUrl: string;
  /** UNIX seconds. */
  time: number;
  /** The notification's text: upstream's get_mobile_push_content of the rendered message, cut to 200 characters. */
  content: string;
} & ({ channelId: number; channelName: string; topic: string } | { recipientUserIds: number[] });

/** Upstream's payload of a new message (api/mobile-notifications, "New channel message" / "New direct message"). */
export const messagePushPayload = (base: PushBase, m: PushMessage) => ({
  ...base,
  type: 'message',
  message_id: m.messageId,
  sender_id: m.senderId,
  sender_full_name: m.senderFullName,
  sender_avatar_url: m.senderAvatarUrl,
  time: m.time,
  content: m.content,
  ...('channelId' in m
    ? { recipient_type: 'channel', channel_id: m.channelId, channel_name: m.channelName, topic: m.topic }
    : { recipient_type: 'direct', recipient_user_ids: [...m.recipientUserIds].sort((a, b) => a - b) }),
});

/** Upstream's payload that removes the notifications of messages the user has read (api/mobile-notifications, "Remove notifications"). */
export const removePushPayload = (base: PushBase, messageIds: number[]) => ({ ...base, type: 'remove', message_ids: messageIds });

/** The longest notification text upstream sends (truncate_content: 200 characters, the last an ellipsis). */
const MAX_PUSH_CONTENT = 200;

/**
 * Upstream's get_mobile_push_content, simplified: the rendered message as plain text (tags
 * dropped, entities decoded, paragraphs as lines), cut to 200 characters with an ellipsis, and
 * whether it was cut (the legacy payloads' content_truncated).
 */
export const pushTextOf = (html: string): { text: string; truncated: boolean } => {
  const text = html
    .replace(/<\/p>\s*<p>/g, '\n')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
  const chars = [...text];
  return chars.length > MAX_PUSH_CONTENT
    ? { text: `${chars.slice(0, MAX_PUSH_CONTENT - 1).join('')}…`, truncated: true }
    : { text, truncated: false };
};

/** A notification's text (pushTextOf's). */
export const pushContentOf = (html: string): string => pushTextOf(html).text;

/** The bouncer's push request for one device (api/mobile-notifications, "Data sent to Zulip's push notifications service"). */
export const pushRequestFor = (device: { tokenId: string; tokenKind: 'fcm' | 'apns'; keyId: number }, encryptedData: string) =>
  device.tokenKind === 'apns'
    ? {
        token_id: device.tokenId,
        http_headers: { apns_priority: 10, apns_push_type: 'alert' },
        payload: {
          push_key_id: device.keyId,
          encrypted_data: encryptedData,
          aps: { 'mutable-content': 1, alert: { title: 'New notification' } },
        },
      }
    : { token_id: device.tokenId, fcm_priority: 'high', payload: { push_key_id: device.keyId, encrypted_data: encryptedData } };

/**
 * An organization's identity at the bouncer (upstream's Realm.uuid and uuid_owner_secret, random
 * at creation there): derived here from this server's registration, so that every process finds
 * the same one without storing it. The uuid is a version-4-shaped hash of the server's id and the
 * organization's; the owner secret an HMAC under the server's key (it changes with the key, and
 * the next registration uploads the new one).
 */
export const realmPushIdentity = (realmId: number, server: { orgId: string; orgKey: string }) => {
  const hash = createHash('sha256').update(`realm-uuid:${server.orgId}:${realmId}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x40;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return {
    uuid: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    uuidOwnerSecret: `zuliprealm_${createHmac('sha256', server.orgKey).update(`realm-owner:${realmId}`).digest('hex').slice(0, 32)}`,
  };
};

/** Why a recipient is notified of a message, the strongest reason first (upstream's NotificationTriggers for push). */
export type PushTrigger = 'direct' | 'mentioned' | 'wildcardMentioned' | 'followedTopic' | 'channel';

/**
 * Upstream's user_allows_notifications_in_StreamTopic: a muted topic, or a muted channel whose
 * topic the user has not unmuted, notifies nothing; else the subscription's own setting, or when
 * it has none (null) the user's.
 */
const allowsInTopic = (isMuted: boolean, policy: number, channelSetting: boolean | null, userSetting: boolean): boolean => {
  if (isMuted && policy !== VisibilityPolicy.UNMUTED) return false;
  if (policy === VisibilityPolicy.MUTED) return false;
  return channelSetting ?? userSetting;
};

/**
 * Whether a wildcard mention notifies a subscriber (push or email, upstream's
 * wildcard_mention_notify): in a followed topic when enable_followed_topic_wildcard_mentions_notify
 * is on, else by the channel's (or user's) wildcard_mentions_notify, muting silencing it.
 */
export const wildcardMentionNotifies = (
  settings: Pick<UserSettings, 'wildcard_mentions_notify' | 'enable_followed_topic_wildcard_mentions_notify'>,
  sub: Subscription,
  policy: number,
): boolean =>
  (policy === VisibilityPolicy.FOLLOWED && settings.enable_followed_topic_wildcard_mentions_notify) ||
  allowsInTopic(sub.isMuted, policy, sub.wildcardMentionsNotify, settings.wildcard_mentions_notify);

/**
 * Whether, and why, a recipient's settings want a push notification of a message (upstream's
 * UserMessageNotificationsData.get_push_notification_trigger, before idleness): `reasons` are what
 * the send found (a direct message, a personal or group mention, a wildcard mention); `inChannel`,
 * for a channel message, the recipient's subscription to the channel (if any) and policy for the
 * topic. Direct messages and mentions follow enable_offline_push_notifications; a wildcard
 * mention also the channel's (or user's) wildcard_mentions_notify, or in a followed topic
 * enable_followed_topic_wildcard_mentions_notify; a followed topic's message
 * enable_followed_topic_push_notifications; any other channel message the channel's (or user's)
 * push setting; muting silences all but direct messages, mentions and followed topics.
 */
export const pushTriggerFor = (
  settings: Pick<
    UserSettings,
    | 'enable_offline_push_notifications'
    | 'wildcard_mentions_notify'
    | 'enable_followed_topic_wildcard_mentions_notify'
    | 'enable_followed_topic_push_notifications'
    | 'enable_stream_push_notifications'
  >,
  reasons: { direct?: boolean; mentioned?: boolean; wildcardMentioned?: boolean },
  inChannel?: { subscription: Subscription | undefined; policy: number },
): PushTrigger | undefined => {
  const offline = settings.enable_offline_push_notifications;
  if (reasons.direct && offline) return 'direct';
  if (reasons.mentioned && offline) return 'mentioned';
  const sub = inChannel?.subscription;
  if (!inChannel || !sub?.active || sub.isUserActive === false) return undefined;
  if (reasons.wildcardMentioned && offline && wildcardMentionNotifies(settings, sub, inChannel.policy)) return 'wildcardMentioned';
  if (inChannel.policy === VisibilityPolicy.FOLLOWED && settings.enable_followed_topic_push_notifications) return 'followedTopic';
  if (allowsInTopic(sub.isMuted, inChannel.policy, sub.pushNotifications, settings.enable_stream_push_notifications)) return 'channel';
  return undefined;
};
