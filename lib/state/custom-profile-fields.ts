// Register state for `custom_profile_fields`: the organization's fields in display order (none for
// spectators, as upstream; read strongly consistent, so a change acknowledged before the queue
// existed is in it), and `custom_profile_field_types`, the eight types by name.
import { FIELD_TYPES, toApiField } from '../models/custom-profile-field';
import * as fieldsStore from '../store/custom-profile-fields';
import type { StateBuilder } from './registry';

export const customProfileFieldsState: StateBuilder = async ({ realm, user, want }) => {
  if (!want('custom_profile_fields')) return {};
  return {
    custom_profile_fields: user ? (await fieldsStore.listFieldsOfRealm(realm.id, { consistent: true })).map(toApiField) : [],
    custom_profile_field_types: structuredClone(FIELD_TYPES),
  };
};
