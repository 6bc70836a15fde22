// Code playgrounds in the realm partition: one item per playground, a claim of its language and
// name (unique together in an organization), and the count that bounds them. Creating or deleting
// one writes all three in one transaction.
import type { Playground } from '../models/playground';
import { countStep, queryPrefix, sendTransaction, stripKeys, type TransactItem } from './common';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

/** The organization's playgrounds (in id order: the items' keys). One Query. */
export const listPlaygrounds = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<Playground[]> => {
  const k = entityKeys.playgroundsOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(
    (item) => stripKeys(item) as Playground,
  );
};

/** One playground of the organization, read consistently, or undefined. */
export const getPlayground = async (realmId: number, playgroundId: number): Promise<Playground | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.playground(realmId, playgroundId), ConsistentRead: true }),
  );
  return out.Item ? (stripKeys(out.Item) as Playground) : undefined;
};

const nameClaim = (p: Playground): TransactItem => ({
  Put: {
    TableName: tableName('main'),
    Item: { ...entityKeys.playgroundName(p.realmId, p.pygmentsLanguage, p.name), playgroundId: p.id },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * Writes a new playground with its claim and counts it: 'written'; 'taken' when the organization
 * has a playground of this language and name; 'full' when it keeps MAX_ORGANIZATION_SETTINGS_OBJECTS;
 * 'conflict' when a concurrent transaction came first (nothing written: try again).
 */
export const createPlayground = async (p: Playground): Promise<'written' | 'taken' | 'full' | 'conflict'> => {
  const loss = await sendTransaction([
    { Put: { TableName: tableName('main'), Item: { ...entityKeys.playground(p.realmId, p.id), ...p } } },
    nameClaim(p),
    countStep(entityKeys.playgroundCount(p.realmId), 1, MAX_ORGANIZATION_SETTINGS_OBJECTS),
  ]);
  if (loss === undefined) return 'written';
  if (loss.lost === 'conflict') return 'conflict';
  return loss.reasons[1] === 'ConditionalCheckFailed' ? 'taken' : 'full';
};

/** Deletes a playground (as read), releases its claim and uncounts it: 'written', 'gone' (already deleted) or 'conflict'. */
export const deletePlayground = async (p: Playground): Promise<'written' | 'gone' | 'conflict'> => {
  const loss = await sendTransaction([
    { Delete: { TableName: tableName('main'), Key: entityKeys.playground(p.realmId, p.id), ConditionExpression: 'attribute_exists(pk)' } },
    { Delete: { TableName: tableName('main'), Key: entityKeys.playgroundName(p.realmId, p.pygmentsLanguage, p.name) } },
    countStep(entityKeys.playgroundCount(p.realmId), -1),
  ]);
  return loss === undefined ? 'written' : loss.lost === 'conflict' ? 'conflict' : 'gone';
};
