// A logged-in client device (POST /register_client_device, feature level 468): what the mobile
// app registers before it asks for end-to-end encrypted push notifications
// (POST /mobile_push/register), which give the device its push registration.

/**
 * A device's push registration (upstream's Device push_* fields): the key the server encrypts its
 * notifications with, and the FCM/APNs token the bouncer knows the device by (its id: the first 8
 * bytes of the token's SHA-256, base64, as the app computes it; the token itself only the bouncer
 * sees). `pendingTokenId` is a token whose registration with the bouncer is under way.
 */
export type DevicePush = {
  /** Base64 of the key as the client sent it: the cryptosystem byte (0x31, libsodium's secretbox) and the 32-byte key. */
  key?: string;
  keyId?: number;
  tokenKind?: 'fcm' | 'apns';
  tokenId?: string;
  pendingTokenId?: string;
  /** When pendingTokenId last took a new value, UNIX seconds. */
  tokenUpdatedAt?: number;
  /** Why the last registration with the bouncer failed (an upstream error code), if it did. */
  errorCode?: string;
};

export type ClientDevice = {
  userId: number;
  deviceId: number;
  createdAt: number;
  push?: DevicePush;
  /** Counts the changes of `push` (the condition of its next change); absent before the first. */
  pushVersion?: number;
};

/** Register's `devices` entry of a device. */
export const toApiClientDevice = (device: ClientDevice) => ({
  push_key_id: device.push?.keyId ?? null,
  push_token_id: device.push?.tokenId ?? null,
  pending_push_token_id: device.push?.pendingTokenId ?? null,
  push_token_last_updated_timestamp: device.push?.tokenUpdatedAt ?? null,
  push_registration_error_code: device.push?.errorCode ?? null,
});
