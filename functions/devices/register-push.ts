// POST /mobile_push/register: registration for end-to-end encrypted push notifications.
import { checkRegisterPushDevice } from '../../lib/actions/client-devices';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString } from '../../lib/http/params';
import { int } from '../../lib/validation/validators';

export const handler = apiHandler(async ({ user, params }) => {
  const { device_id } = params({
    device_id: json(int),
    push_key_id: json(int).optional(),
    push_key: rawString().optional(),
    token_kind: rawString().optional(),
    token_id: rawString().optional(),
    bouncer_public_key: rawString().optional(),
    encrypted_push_registration: rawString().optional(),
  });
  return checkRegisterPushDevice(user, device_id);
});
