// The pure parts of push notifications: the app's keys and token ids as upstream reads them, the
// encryption the app opens, the notification text, and who is notified of what.
import nacl from 'tweetnacl';
import {
  canonicalTokenId,
  decryptPushPayload,
  encryptPushPayload,
  parsePushKey,
  pushContentOf,
  pushTriggerFor,
  realmPushIdentity,
} from '../../../lib/models/push-notifications';
import { newSubscription } from '../../../lib/models/channel';
import { DEFAULT_USER_SETTINGS } from '../../../lib/models/user-settings';

const key = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString('base64');

describe('push keys and token ids', () => {
  it('accepts a secretbox key: 0x31 and 32 bytes, in padded standard base64', () => {
    expect(parsePushKey(key)?.length).toBe(33);
    expect(parsePushKey(Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 0xfb)]).toString('base64url'))).toBeUndefined();
    expect(parsePushKey(Buffer.concat([Buffer.from([0x30]), Buffer.alloc(32)]).toString('base64'))).toBeUndefined();
    expect(parsePushKey(`${key}\n`)).toBeUndefined();
  });

  it('reads a token id as upstream stores it: 8 big-endian bytes, sign-extended', () => {
    expect(canonicalTokenId('hGsEWGmyyfI=')).toBe('hGsEWGmyyfI=');
    expect(canonicalTokenId('AQ==')).toBe('AAAAAAAAAAE=');
    expect(canonicalTokenId('/w==')).toBe('//////////8=');
    expect(canonicalTokenId('AAAAAAAAAAAA')).toBeUndefined();
    expect(canonicalTokenId('not base64')).toBeUndefined();
  });
});

describe('payload encryption', () => {
  it("is libsodium's secretbox under the key, as the nonce followed by the ciphertext", () => {
    const encrypted = Buffer.from(encryptPushPayload({ type: 'test', user_id: 10 }, key), 'base64');
    const opened = nacl.secretbox.open(
      new Uint8Array(encrypted.subarray(24)),
      new Uint8Array(encrypted.subarray(0, 24)),
      new Uint8Array(Buffer.alloc(32, 7)),
    );
    expect(JSON.parse(Buffer.from(opened!).toString())).toEqual({ type: 'test', user_id: 10 });
  });

  it('uses a fresh nonce each time, and does not open under another key', () => {
    const other = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 8)]).toString('base64');
    const a = encryptPushPayload({ n: 1 }, key);
    expect(encryptPushPayload({ n: 1 }, key)).not.toBe(a);
    expect(decryptPushPayload(a, key)).toEqual({ n: 1 });
    expect(decryptPushPayload(a, other)).toBeUndefined();
  });
});

describe('notification text and organization identity', () => {
  it('is the rendered message as text, cut to 200 characters', () => {
    expect(pushContentOf('<p>Hello <strong>you</strong> &amp; &lt;me&gt;</p>\n<p>again</p>')).toBe('Hello you & <me>\nagain');
    const long = pushContentOf(`<p>${'x'.repeat(300)}</p>`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('gives each organization a stable version-4-shaped uuid of the server and the organization', () => {
    const server = { orgId: '6cb1a6b6-5b8f-4d46-8a43-0d6c8b6d5b7a', orgKey: 'k'.repeat(64) };
    const a = realmPushIdentity(2, server);
    expect(a.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(realmPushIdentity(2, server)).toEqual(a);
    expect(realmPushIdentity(3, server).uuid).not.toBe(a.uuid);
    expect(realmPushIdentity(2, { ...server, orgId: '00000000-0000-4000-8000-000000000000' }).uuid).not.toBe(a.uuid);
  });
});

describe('who is notified (pushTriggerFor, upstream notification_data.py)', () => {
  const settings = { ...DEFAULT_USER_SETTINGS, enable_stream_push_notifications: true };
  const sub = (over: Partial<ReturnType<typeof newSubscription>> = {}) => ({
    ...newSubscription({ userId: 1, channelId: 1, realmId: 1 }, '#fff'),
    ...over,
  });
  const [INHERIT, MUTED, UNMUTED, FOLLOWED] = [0, 1, 2, 3];

  it.each([
    ['a direct message', settings, { direct: true }, undefined, 'direct'],
    [
      'a direct message, offline notifications off',
      { ...settings, enable_offline_push_notifications: false },
      { direct: true },
      undefined,
      undefined,
    ],
    ['a mention in a muted topic', settings, { mentioned: true }, { subscription: sub(), policy: MUTED }, 'mentioned'],
    [
      'a wildcard mention, channel setting off',
      settings,
      { wildcardMentioned: true },
      { subscription: sub({ wildcardMentionsNotify: false, pushNotifications: false }), policy: INHERIT },
      undefined,
    ],
    [
      'a wildcard mention in a followed topic, channel setting off',
      settings,
      { wildcardMentioned: true },
      { subscription: sub({ wildcardMentionsNotify: false }), policy: FOLLOWED },
      'wildcardMentioned',
    ],
    ['a followed topic in a muted channel', settings, {}, { subscription: sub({ isMuted: true }), policy: FOLLOWED }, 'followedTopic'],
    ['a channel message, user setting on', settings, {}, { subscription: sub(), policy: INHERIT }, 'channel'],
    [
      'a channel message, channel setting off',
      settings,
      {},
      { subscription: sub({ pushNotifications: false }), policy: INHERIT },
      undefined,
    ],
    [
      'a channel message, user setting off, channel on',
      { ...settings, enable_stream_push_notifications: false },
      {},
      { subscription: sub({ pushNotifications: true }), policy: INHERIT },
      'channel',
    ],
    ['a muted channel', settings, {}, { subscription: sub({ isMuted: true }), policy: INHERIT }, undefined],
    ['an unmuted topic of a muted channel', settings, {}, { subscription: sub({ isMuted: true }), policy: UNMUTED }, 'channel'],
    ['a muted topic', settings, {}, { subscription: sub(), policy: MUTED }, undefined],
    ['a channel left', settings, {}, { subscription: sub({ active: false }), policy: FOLLOWED }, undefined],
    ['no subscription', settings, {}, { subscription: undefined, policy: INHERIT }, undefined],
  ] as const)('%s', (_, userSettings, reasons, inChannel, expected) => {
    expect(pushTriggerFor(userSettings, reasons, inChannel)).toBe(expected);
  });
});
