// PATCH /settings: the caller's personal settings (those register's user_settings reports), their
// name, and a password change.
import { checkChangeSettings, type SettingValue } from '../../lib/actions/people/settings';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString, type ParamSpec } from '../../lib/http/params';
import { bool, int, literal } from '../../lib/validation/validators';
import { DEFAULT_USER_SETTINGS, SETTING_CHOICES, type ChangeableSetting } from '../../lib/models/user-settings';

// One declaration per setting, from its default's type: booleans and integers are JSON, strings
// raw (as upstream declares them); enumerated ones answer "Invalid <name>" outside their choices.
const SETTING_PARAMS = Object.fromEntries(
  Object.entries(DEFAULT_USER_SETTINGS)
    .filter(([name]) => name !== 'email_address_visibility')
    .map(([name, fallback]) => {
      const choices = (SETTING_CHOICES as Record<string, readonly (string | number)[]>)[name];
      if (typeof fallback === 'string') return [name, rawString(choices ? (literal(...choices) as never) : undefined).optional()];
      const validator = typeof fallback === 'boolean' ? bool : choices ? literal(...choices) : int;
      return [name, json<SettingValue>(validator).optional()];
    }),
) as Record<ChangeableSetting, ParamSpec<SettingValue | undefined>>;

export const handler = apiHandler(async ({ user, realm, params }) => {
  const { email, full_name, old_password, new_password, ...settings } = params({
    email: rawString().optional(),
    full_name: rawString().optional(),
    old_password: rawString().default(''),
    new_password: rawString().default(''),
    ...SETTING_PARAMS,
  });
  await checkChangeSettings(user, realm, { settings, email, fullName: full_name, oldPassword: old_password, newPassword: new_password });
  return {};
});
