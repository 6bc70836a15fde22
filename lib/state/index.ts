// Every register state builder. Add one line per category module.
import { customProfileFieldsState } from './custom-profile-fields';
import { draftsState } from './drafts';
import type { StateBuilder } from './registry';

export const STATE_BUILDERS: StateBuilder[] = [
  draftsState,
  customProfileFieldsState,
];
