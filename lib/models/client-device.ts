// A logged-in client device (POST /register_client_device, feature level 468): what the mobile
// app registers before it asks for push notifications. This service reaches no push bouncer, so
// a device never gets a push key or token: those fields stay null.
export type ClientDevice = { userId: number; deviceId: number; createdAt: number };

/** Register's `devices` entry of a device. */
export const toApiClientDevice = (_device: ClientDevice) => ({
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
});
