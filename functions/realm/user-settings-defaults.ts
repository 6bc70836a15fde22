// PATCH /realm/user_settings_defaults: the settings new accounts of the organization start with.
import { checkUpdateRealmUserSettingsDefaults } from '../../lib/actions/organization/settings';
import type { SettingValue } from '../../lib/actions/people/settings';
import { apiHandler } from '../../lib/http/api-handler';
import { json, rawString, type ParamSpec } from '../../lib/http/params';
import { DEFAULT_USER_SETTINGS, REALM_USER_DEFAULT_SETTINGS, SETTING_CHOICES } from '../../lib/models/user-settings';
import { bool, int, literal } from '../../lib/validation/validators';

/** Upstream's UserProfile.EMAIL_ADDRESS_VISIBILITY_TYPES. */
const CHOICES: Record<string, readonly (string | number)[]> = { ...SETTING_CHOICES, email_address_visibility: [1, 2, 3, 4, 5] };

// As PATCH /settings declares them: booleans and integers JSON, strings raw, enumerated ones
// "Invalid <name>" outside their choices.
const SETTING_PARAMS = Object.fromEntries(
  REALM_USER_DEFAULT_SETTINGS.map((name) => {
    const fallback = DEFAULT_USER_SETTINGS[name];
    const choices = CHOICES[name];
    if (typeof fallback === 'string') return [name, rawString(choices ? (literal(...choices) as never) : undefined).optional()];
    const validator = typeof fallback === 'boolean' ? bool : choices ? literal(...choices) : int;
    return [name, json<SettingValue>(validator).optional()];
  }),
) as Record<string, ParamSpec<SettingValue | undefined>>;

export const handler = apiHandler(async ({ user, params }) => {
  const updateDefaults = checkUpdateRealmUserSettingsDefaults.authorize(user);
  const settings = Object.fromEntries(Object.entries(params(SETTING_PARAMS)).filter(([, v]) => v !== undefined)) as Record<
    string,
    SettingValue
  >;
  await updateDefaults(settings);
  return {};
});
