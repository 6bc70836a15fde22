// Register state for `realm_linkifiers` (in matching order; empty for clients without the
// linkifier_url_template capability, which cannot use RFC 6570 templates) and the legacy
// `realm_filters`, which upstream always returns empty.
import { sortLinkifiers, toApiLinkifier } from '../models/linkifier';
import * as linkifiersStore from '../store/linkifiers';
import type { StateBuilder } from './registry';

export const linkifiersState: StateBuilder = async ({ realm, want, capabilities }) => {
  const state: Record<string, unknown> = {};
  if (want('realm_linkifiers')) {
    state.realm_linkifiers =
      capabilities.linkifier_url_template === true
        ? sortLinkifiers((await linkifiersStore.readLinkifierList(realm.id)).linkifiers).map(toApiLinkifier)
        : [];
  }
  if (want('realm_filters')) state.realm_filters = [];
  return state;
};
