// Parameter shapes shared by the user-group endpoints: group-setting values (a group id or an
// anonymous group) and upstream's GroupSettingChangeRequest ({new, old?}).
import type { Validator } from '../../lib/validation/validators';
import { int, list, object } from '../../lib/validation/validators';
import type { SettingChange } from '../../lib/actions/groups/manage';
import type { GroupSettingValue } from '../../lib/models/realm';

const anonymousGroup = object({ direct_members: list(int), direct_subgroups: list(int) });

/** `int | {direct_members, direct_subgroups}`: an object is checked as an anonymous group, anything else as an id. */
export const groupSettingValue: Validator<GroupSettingValue> = (value, path) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? anonymousGroup(value, path) : int(value, path);

export const settingChange: Validator<SettingChange> = object({ new: groupSettingValue, old: groupSettingValue }, { optional: ['old'] });
