// Allowed email domains: list, add, change and remove them, with upstream's checks, messages and
// `realm_domains` events (zerver/views/realm_domains.py, zerver/actions/realm_domains.py), and the
// question a sign-up or an email change asks of them (upstream's email_allowed_for_realm).
import { BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { realmProperty, type Realm } from '../../models/realm';
import {
  candidateDomains,
  domainError,
  emailDomain,
  emailLocalPart,
  toApiRealmDomain,
  type EmailDomainRefusal,
  type RealmDomain,
} from '../../models/realm-domain';
import type { User } from '../../models/user';
import { allocateIds } from '../../store/common';
import * as domainsStore from '../../store/realm-domains';
import * as realmsStore from '../../store/realms';
import { doSetRealmProperty } from './settings';
import { forOwners } from '../requiring';

const noEntry = (domain: string) => new BadRequestError(`No entry found for domain ${domain}.`);

/** GET /realm/domains (any user of the organization): its domains, in the order they were added. */
export const listRealmDomains = async (user: User): Promise<{ domain: string; allow_subdomains: boolean }[]> =>
  (await domainsStore.listDomainsOfRealm(user.realmId)).map(toApiRealmDomain);

/**
 * POST /realm/domains, for owners. The domain is stripped and lowercased, then checked as upstream's
 * validate_domain ("Invalid domain: <reason>"); one the organization has is refused ("The domain
 * <domain> is already a part of your organization."), also when a concurrent add wins. Sends
 * `realm_domains` `add` to the organization; returns the new entry's id and domain.
 */
export const checkAddRealmDomain = forOwners(async (user: User, rawDomain: string, allowSubdomains: boolean): Promise<[number, string]> => {
  const domain = rawDomain.trim().toLowerCase();
  const error = domainError(domain);
  if (error !== undefined) throw new BadRequestError(`Invalid domain: ${error}`);
  const taken = () => new BadRequestError(`The domain ${domain} is already a part of your organization.`);
  if ((await domainsStore.getDomains(user.realmId, [domain])).length > 0) throw taken();
  const entry: RealmDomain = { realmId: user.realmId, id: await allocateIds('realmDomain'), domain, allowSubdomains };
  if (!(await domainsStore.addDomain(entry))) throw taken();
  await sendEvent(user.realmId, { type: 'realm_domains', op: 'add', realm_domain: toApiRealmDomain(entry) }, 'realm');
  return [entry.id, entry.domain];
});

/**
 * PATCH /realm/domains/{domain}, for owners: the domain as sent (upstream does not lowercase it
 * here) must be the organization's ("No entry found for domain <domain>."). Sets
 * allow_subdomains and sends `realm_domains` `change` (also when it had that value, as upstream).
 */
export const checkChangeRealmDomain = forOwners(async (user: User, domain: string, allowSubdomains: boolean): Promise<void> => {
  if (!(await domainsStore.changeDomain(user.realmId, domain, allowSubdomains))) throw noEntry(domain);
  await sendEvent(
    user.realmId,
    { type: 'realm_domains', op: 'change', realm_domain: { domain, allow_subdomains: allowSubdomains } },
    'realm',
  );
});

/**
 * DELETE /realm/domains/{domain}, for owners: "No entry found for domain <domain>." unless the
 * organization has it (a concurrent delete included). When it was the last domain of an
 * organization that restricts emails to its domains, the restriction is lifted (a `realm`
 * `update` event for emails_restricted_to_domains). Sends `realm_domains` `remove`.
 */
export const checkRemoveRealmDomain = forOwners(async (user: User, domain: string): Promise<void> => {
  if (!(await domainsStore.removeDomain(user.realmId, domain))) throw noEntry(domain);
  // Upstream's do_remove_realm_domain: restricting emails to no domain at all means nothing, so
  // removing the last one lifts the restriction (with its realm update event, sent first).
  if ((await domainsStore.listDomainsOfRealm(user.realmId, { consistent: true })).length === 0) {
    const realm = await realmsStore.get(user.realmId, { consistent: true });
    if (realm && realmProperty(realm, 'emails_restricted_to_domains'))
      await doSetRealmProperty(user.realmId, 'emails_restricted_to_domains', false);
  }
  await sendEvent(user.realmId, { type: 'realm_domains', op: 'remove', domain }, 'realm');
});

/**
 * Whether an email may join the organization by its allowed domains (upstream's
 * get_realm_email_validator for an organization that restricts emails to its domains): undefined
 * when allowed, else why not (`EMAIL_DOMAIN_REFUSALS` has upstream's messages). An address with a
 * "+" in its local part is refused; its domain must be an allowed domain, or a subdomain of one
 * that allows subdomains. One strongly consistent batch get (the domain and its parents).
 *
 * The caller decides whether the organization restricts emails to its domains
 * (emails_restricted_to_domains); for one that does not, every domain is allowed.
 */
export const emailDomainRefusal = async (realm: Pick<Realm, 'id'>, email: string): Promise<EmailDomainRefusal | undefined> => {
  if (emailLocalPart(email).includes('+')) return 'plus';
  const candidates = candidateDomains(emailDomain(email));
  const stored = new Map(
    (
      await domainsStore.getDomains(
        realm.id,
        candidates.map((c) => c.domain),
      )
    ).map((d) => [d.domain, d]),
  );
  const allowed = candidates.some(({ domain, exact }) => {
    const entry = stored.get(domain);
    return entry !== undefined && (exact || entry.allowSubdomains);
  });
  return allowed ? undefined : 'domain';
};
