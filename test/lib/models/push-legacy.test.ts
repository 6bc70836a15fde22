// The pure parts of legacy push notifications: upstream's token checks, a user's uuid at the
// bouncer, and the payloads' cases the end-to-end tests do not reach.
import {
  legacyBasePayload,
  legacyMessagePayloads,
  legacyRemovePayloads,
  legacyTokenProblem,
  userPushUuid,
  type LegacyMessage,
} from '../../../lib/models/push-legacy';

const base = legacyBasePayload({ id: 2, name: 'Zulip Dev', url: 'http://localhost:3000' }, 10);
const channelMessage: LegacyMessage = {
  messageId: 5,
  senderId: 11,
  senderEmail: 'iago@zulip.com',
  senderFullName: 'Iago',
  senderAvatarUrl: 'https://example.com/a.png',
  time: 1,
  content: 'hi',
  contentTruncated: false,
  channelId: 1,
  channelName: 'Denmark',
  topic: 'castle',
};

describe('legacy tokens', () => {
  it("checks tokens as upstream's validate_token", () => {
    expect(legacyTokenProblem('', 'fcm')).toBe('Empty or invalid length token');
    expect(legacyTokenProblem('é'.repeat(4096), 'fcm')).toBeUndefined();
    expect(legacyTokenProblem('😀'.repeat(4097), 'fcm')).toBe('Empty or invalid length token');
    expect(legacyTokenProblem('not hex at all', 'fcm')).toBeUndefined();
    // bytes.fromhex: pairs of digits, whitespace between pairs only.
    expect(legacyTokenProblem('ab cd\tEF', 'apns')).toBeUndefined();
    expect(legacyTokenProblem('a bcd', 'apns')).toBe('Invalid APNS token');
    expect(legacyTokenProblem('abc', 'apns')).toBe('Invalid APNS token');
  });

  it("derives a user's stable, version-4-shaped uuid from the server, the organization and the user", () => {
    const uuid = userPushUuid(2, 10, { orgId: 'server-a' });
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(userPushUuid(2, 10, { orgId: 'server-a' })).toBe(uuid);
    expect(userPushUuid(2, 11, { orgId: 'server-a' })).not.toBe(uuid);
    expect(userPushUuid(3, 10, { orgId: 'server-a' })).not.toBe(uuid);
    expect(userPushUuid(2, 10, { orgId: 'server-b' })).not.toBe(uuid);
  });
});

describe('legacy payloads', () => {
  it.each([
    ['mentioned', 'Iago mentioned you:'],
    ['wildcardMentioned', 'Iago mentioned everyone:'],
    ['followedTopic', 'Iago:'],
  ] as const)('gives a channel message the APNs subtitle of its trigger (%s)', (trigger, subtitle) => {
    expect(legacyMessagePayloads(base, channelMessage, trigger).apns_payload.alert.subtitle).toBe(subtitle);
  });

  it('removes the newest 200 of many read messages, in order', () => {
    const ids = Array.from({ length: 250 }, (_, i) => 1000 - i);
    const { gcm_payload, apns_payload } = legacyRemovePayloads(base, ids);
    const expected = Array.from({ length: 200 }, (_, i) => 801 + i);
    expect(gcm_payload.zulip_message_ids).toBe(expected.join(','));
    expect(gcm_payload.zulip_message_id).toBe(801);
    expect(apns_payload.custom.zulip.zulip_message_ids).toBe(expected.join(','));
  });
});
