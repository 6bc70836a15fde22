// Allowed email domains of an organization (upstream's RealmDomain): who may sign up or change
// their email when the organization restricts emails to its domains.

/** One allowed domain, lowercased. */
export type RealmDomain = { realmId: number; id: number; domain: string; allowSubdomains: boolean };

/** The wire form (register's `realm_domains`, GET /realm/domains, the events). */
export const toApiRealmDomain = (d: RealmDomain): { domain: string; allow_subdomains: boolean } => ({
  domain: d.domain,
  allow_subdomains: d.allowSubdomains,
});

/** Upstream's domain length limit (validate_domain). */
const MAX_DOMAIN_LENGTH = 255;

/**
 * Upstream's validate_domain (zerver/lib/domains.py), on an already stripped and lowercased
 * domain: the reason it is invalid, or undefined when it is valid.
 */
export const domainError = (domain: string): string | undefined => {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > MAX_DOMAIN_LENGTH) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return undefined;
};

/** The part of an email after its last "@", lowercased (upstream's email_to_domain). */
export const emailDomain = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** The part of an email before its last "@" (upstream's email_to_username). */
export const emailLocalPart = (email: string): string => email.slice(0, Math.max(0, email.lastIndexOf('@')));

/**
 * The domains that may admit an email's domain: the domain itself (admits whatever its
 * allow_subdomains), then each parent domain (admits only with allow_subdomains), as upstream's
 * get_realm_email_validator walks them ("a.b.example.com" → "b.example.com", "example.com", "com").
 */
export const candidateDomains = (domain: string): { domain: string; exact: boolean }[] => {
  const out = [{ domain, exact: true }];
  for (let rest = domain; rest.includes('.');) {
    rest = rest.slice(rest.indexOf('.') + 1);
    out.push({ domain: rest, exact: false });
  }
  return out;
};

/** Why an email may not sign up under domain restrictions, with upstream's messages (validate_email_is_valid). */
export const EMAIL_DOMAIN_REFUSALS = {
  domain: 'Outside your domain.',
  plus: 'Email addresses containing + are not allowed.',
} as const;
export type EmailDomainRefusal = keyof typeof EMAIL_DOMAIN_REFUSALS;
