// Allowed email domains (realm partition, DOMAIN#<domain>): one item per domain, so the key itself
// makes a domain unique in its organization and a sign-up check is a batch get of the email's
// domain and its parents.
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RealmDomain } from '../models/realm-domain';
import { tableName } from './client';
import { batchGet, queryPrefix, sendConditional, stripKeys, type Item } from './common';
import { entityKeys, lookupKey } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

const toDomain = (item: Item): RealmDomain => stripKeys(item) as RealmDomain;

/** The organization's domains, in the order they were added (upstream lists them by id). */
export const listDomainsOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<RealmDomain[]> => {
  const k = entityKeys.realmDomainsOfRealm(realmId);
  const items = await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS });
  return items.map(toDomain).sort((a, b) => a.id - b.id);
};

/** The stored entries among these domains (strongly consistent); a domain too long for a key has none. */
export const getDomains = async (realmId: number, domains: string[]): Promise<RealmDomain[]> => {
  const itemKeys = [...new Set(domains)].flatMap((d) => lookupKey(() => entityKeys.realmDomain(realmId, d)) ?? []);
  if (itemKeys.length === 0) return [];
  return (await batchGet('main', itemKeys, { consistent: true })).map(toDomain);
};

export const buildAddDomainInput = (d: RealmDomain) => ({
  TableName: tableName('main'),
  Item: { ...entityKeys.realmDomain(d.realmId, d.domain), ...d },
  ConditionExpression: 'attribute_not_exists(pk)',
});

/** Adds a domain; false when the organization already has it. */
export const addDomain = (d: RealmDomain): Promise<boolean> => sendConditional(new PutCommand(buildAddDomainInput(d)));

/** Sets allow_subdomains of an existing domain; false when the organization has no such domain. */
export const changeDomain = async (realmId: number, domain: string, allowSubdomains: boolean): Promise<boolean> => {
  const key = lookupKey(() => entityKeys.realmDomain(realmId, domain));
  if (!key) return false;
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: key,
      UpdateExpression: 'SET allowSubdomains = :v',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':v': allowSubdomains },
    }),
  );
};

/** Removes a domain; false when the organization has no such domain. */
export const removeDomain = async (realmId: number, domain: string): Promise<boolean> => {
  const key = lookupKey(() => entityKeys.realmDomain(realmId, domain));
  if (!key) return false;
  return sendConditional(new DeleteCommand({ TableName: tableName('main'), Key: key, ConditionExpression: 'attribute_exists(pk)' }));
};
