// Every register state builder. Add one line per category module.
import type { StateBuilder } from './registry';

export const STATE_BUILDERS: StateBuilder[] = [];
