// The pure parts of push notifications: the app's keys and token ids as upstream reads them, the
// encryption the app opens, and the notification text.
import nacl from 'tweetnacl';
import {
  canonicalTokenId,
  decryptPushPayload,
  encryptPushPayload,
  parsePushKey,
  pushContentOf,
  realmPushIdentity,
} from '../../../lib/models/push-notifications';

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
