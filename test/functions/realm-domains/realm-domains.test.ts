import { handler as create } from '../../../functions/realm-domains/create';
import { handler as remove } from '../../../functions/realm-domains/delete';
import { handler as list } from '../../../functions/realm-domains/list';
import { handler as update } from '../../../functions/realm-domains/update';
import { handler as register } from '../../../functions/events/register';
import { handler as updateRealm } from '../../../functions/realm/update';
import { emailDomainRefusal } from '../../../lib/actions/organization/domains';
import { EMAIL_DOMAIN_REFUSALS } from '../../../lib/models/realm-domain';
import * as domainsStore from '../../../lib/store/realm-domains';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const OWNER = 'desdemona@zulip.com';
const ZULIP = 2;
const LEAR = 3;

const atDomain = (method: string, domain: string) => ({
  method,
  path: `/realm/domains/${encodeURIComponent(domain)}`,
  routeKey: `${method} /realm/domains/{domain}`,
  pathParameters: { domain: encodeURIComponent(domain) },
});
const add = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/realm/domains', as, params });
const change = (as: string, domain: string, params: Record<string, unknown>) => call(update, { ...atDomain('PATCH', domain), as, params });
const del = (as: string, domain: string) => call(remove, { ...atDomain('DELETE', domain), as });
const stored = async (realmId = ZULIP) =>
  (await domainsStore.listDomainsOfRealm(realmId, { consistent: true })).map((d) => [d.domain, d.allowSubdomains]);

describe('POST /realm/domains', () => {
  it('adds the domain stripped and lowercased, answers its id, and sends realm_domains add to another user', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    const body = expectSuccess(await add(OWNER, { domain: '  Zulip.COM ', allow_subdomains: false }));
    expect(body.new_domain).toEqual([expect.any(Number), 'zulip.com']);
    expect(await stored()).toEqual([['zulip.com', false]]);
    expect(await queue.drain()).toEqual([
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'zulip.com', allow_subdomains: false } },
    ]);
  });

  it.each([
    ['', "Invalid domain: Domain can't be empty."],
    ['localhost', 'Invalid domain: Domain must have at least one dot (.)'],
    [`${'a'.repeat(252)}.com`, 'Invalid domain: Domain is too long'],
    ['.example.com', 'Invalid domain: Domain cannot start or end with a dot (.)'],
    ['example..com', "Invalid domain: Consecutive '.' are not allowed."],
    ['-a.example.com', "Invalid domain: Subdomains cannot start or end with a '-'."],
    ['ex_ample.com', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
    ['ZULIP.com', 'The domain zulip.com is already a part of your organization.'],
  ])('refuses %j and adds nothing', async (domain, msg) => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    expectError(await add(OWNER, { domain, allow_subdomains: true }), msg);
    expect(await stored()).toEqual([['zulip.com', false]]);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses an allow_subdomains that is no boolean, and a missing one', async () => {
    expectError(await add(OWNER, { domain: 'a.com', allow_subdomains: 'yes' }), 'allow_subdomains is not valid JSON');
    expectError(await add(OWNER, { domain: 'a.com' }), "Missing 'allow_subdomains' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expect(await stored()).toEqual([['zulip.com', false]]);
  });

  it.each([['iago@zulip.com'], ['hamlet@zulip.com']])('refuses %s, who is no owner', async (email) => {
    expectError(
      await add(email, { domain: 'a.com', allow_subdomains: true }),
      'Must be an organization owner',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await stored()).toEqual([['zulip.com', false]]);
  });

  it('lets another organization add the same domain', async () => {
    expectSuccess(await add('king@lear.org', { domain: 'zulip.com', allow_subdomains: true }));
    expect(await stored(LEAR)).toEqual([['zulip.com', true]]);
    expect(await stored()).toEqual([['zulip.com', false]]);
  });
});

describe('GET /realm/domains and register', () => {
  it('lists the organization’s domains in the order they were added, to any user', async () => {
    expectSuccess(await add(OWNER, { domain: 'acme.org', allow_subdomains: true }));
    expect(expectSuccess(await call(list, { method: 'GET', path: '/realm/domains', as: 'hamlet@zulip.com' })).domains).toEqual([
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'acme.org', allow_subdomains: true },
    ]);
  });

  it('gives register’s realm_domains', async () => {
    const body = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm_domains'] } }),
    );
    expect(body.realm_domains).toEqual([
      { domain: 'zulip.com', allow_subdomains: false },
      { domain: 'acme.org', allow_subdomains: true },
    ]);
  });
});

describe('PATCH /realm/domains/{domain}', () => {
  it('sets allow_subdomains and sends realm_domains change to another user', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    expectSuccess(await change(OWNER, 'zulip.com', { allow_subdomains: true }));
    expect(await stored()).toEqual([
      ['zulip.com', true],
      ['acme.org', true],
    ]);
    expect(await queue.drain()).toEqual([
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'zulip.com', allow_subdomains: true } },
    ]);
  });

  it.each([
    ['a domain it does not have', 'nowhere.com'],
    ['its domain in other case', 'ZULIP.com'],
    ['a domain too long for a key', 'x'.repeat(2000)],
  ])('refuses %s with "No entry found for domain …" and changes nothing', async (_what, domain) => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    expectError(await change(OWNER, domain, { allow_subdomains: false }), `No entry found for domain ${domain}.`);
    expect(await stored()).toEqual([
      ['zulip.com', true],
      ['acme.org', true],
    ]);
    expect(await queue.drain()).toEqual([]);
  });

  it("does not find another organization's domain", async () => {
    expectError(await change('king@lear.org', 'acme.org', { allow_subdomains: false }), 'No entry found for domain acme.org.');
    expect(await stored()).toEqual([
      ['zulip.com', true],
      ['acme.org', true],
    ]);
  });

  it('refuses an administrator who is no owner', async () => {
    expectError(
      await change('iago@zulip.com', 'zulip.com', { allow_subdomains: false }),
      'Must be an organization owner',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect((await stored())[0]).toEqual(['zulip.com', true]);
  });
});

describe('who may sign up by the allowed domains', () => {
  it.each([
    ['hamlet@zulip.com', undefined],
    ['hamlet@ZULIP.COM', undefined],
    ['hamlet@eng.zulip.com', undefined],
    ['road@runner.acme.org', undefined],
    ['hamlet+tag@zulip.com', 'plus'],
    ['hamlet@example.com', 'domain'],
    ['hamlet@zulip.com.evil.org', 'domain'],
  ])('%s → %s', async (email, refusal) => {
    expect(await emailDomainRefusal({ id: ZULIP }, email)).toBe(refusal);
  });

  it('admits no subdomain of a domain that does not allow them', async () => {
    expectSuccess(await change(OWNER, 'zulip.com', { allow_subdomains: false }));
    expect(await emailDomainRefusal({ id: ZULIP }, 'hamlet@eng.zulip.com')).toBe('domain');
    expect(await emailDomainRefusal({ id: ZULIP }, 'hamlet@zulip.com')).toBeUndefined();
    expect(EMAIL_DOMAIN_REFUSALS.domain).toBe('Outside your domain.');
  });
});

describe('DELETE /realm/domains/{domain}', () => {
  it('removes the domain and sends realm_domains remove to another user', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    expectSuccess(await del(OWNER, 'acme.org'));
    expect(await stored()).toEqual([['zulip.com', false]]);
    expect(await queue.drain()).toEqual([{ type: 'realm_domains', op: 'remove', domain: 'acme.org' }]);
    expect(await emailDomainRefusal({ id: ZULIP }, 'road@runner.acme.org')).toBe('domain');
  });

  it.each([['acme.org'], ['lear.org']])('refuses %s, which the organization does not have, and removes nothing', async (domain) => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_domains'] });
    expectError(await del(OWNER, domain), `No entry found for domain ${domain}.`);
    expect(await stored()).toEqual([['zulip.com', false]]);
    expect(await queue.drain()).toEqual([]);
  });

  it("does not remove another organization's domain", async () => {
    expectError(await del(OWNER, 'zulip.com'.toUpperCase()), 'No entry found for domain ZULIP.COM.');
    expectSuccess(await del('king@lear.org', 'zulip.com'));
    expect(await stored(LEAR)).toEqual([]);
    expect(await stored()).toEqual([['zulip.com', false]]);
  });

  it('refuses an administrator who is no owner', async () => {
    expectError(await del('iago@zulip.com', 'zulip.com'), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toEqual([['zulip.com', false]]);
  });

  it('lifts the restriction of emails to domains with the last domain, telling every user before the removal', async () => {
    expectSuccess(await call(updateRealm, { method: 'PATCH', path: '/realm', as: OWNER, params: { emails_restricted_to_domains: true } }));
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm', 'realm_domains'] });
    expectSuccess(await del(OWNER, 'zulip.com'));
    expect(await stored()).toEqual([]);
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'zulip.com' },
    ]);
    const state = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'hamlet@zulip.com', params: { fetch_event_types: ['realm'] } }),
    );
    expect(state.realm_emails_restricted_to_domains).toBe(false);
  });
});
