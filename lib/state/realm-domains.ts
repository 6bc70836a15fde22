// Register state for `realm_domains`: the organization's allowed email domains, in the order they
// were added (as upstream's get_realm_domains), read strongly consistent.
import { toApiRealmDomain } from '../models/realm-domain';
import * as domainsStore from '../store/realm-domains';
import type { StateBuilder } from './registry';

export const realmDomainsState: StateBuilder = async ({ realm, want }) => {
  if (!want('realm_domains')) return {};
  return { realm_domains: (await domainsStore.listDomainsOfRealm(realm.id, { consistent: true })).map(toApiRealmDomain) };
};
