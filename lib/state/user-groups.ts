// Register state for `realm_user_groups`: every named group of the organization with every field
// upstream returns, by id; deactivated groups only for clients with include_deactivated_groups.
import { toApiUserGroup } from '../models/user-group';
import * as groupsStore from '../store/user-groups';
import type { StateBuilder } from './registry';

export const userGroupsState: StateBuilder = async ({ realm, want, capabilities }) => {
  if (!want('realm_user_groups')) return {};
  const includeDeactivated = capabilities.include_deactivated_groups === true;
  const groups = await groupsStore.listGroupsOfRealm(realm.id);
  return {
    realm_user_groups: groups
      .filter((g) => includeDeactivated || !g.deactivated)
      .sort((a, b) => a.id - b.id)
      .map(toApiUserGroup),
  };
};
