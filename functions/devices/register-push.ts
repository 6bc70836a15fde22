// POST /mobile_push/register: registration for end-to-end encrypted push notifications.
import { checkRegisterPushDevice } from '../../lib/actions/push/registration';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int, intInRange, stringIn } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const register = checkRegisterPushDevice.authorize(user);
  const p = params({
    device_id: json(int),
    push_key_id: json(intInRange(0, 2 ** 32 - 1)).optional(),
    push_key: rawString().optional(),
    token_kind: rawString(stringIn(['fcm', 'apns'] as const)).optional(),
    token_id: rawString().optional(),
    bouncer_public_key: rawString().optional(),
    encrypted_push_registration: rawString().optional(),
  });
  await register(p.device_id, {
    pushKey: p.push_key,
    pushKeyId: p.push_key_id,
    tokenKind: p.token_kind,
    tokenId: p.token_id,
    bouncerPublicKey: p.bouncer_public_key,
    encryptedPushRegistration: p.encrypted_push_registration,
  });
  return {};
});
