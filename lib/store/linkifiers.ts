// Linkifiers (realm partition, LINKIFIER#<id>) and the realm's linkifier-list version item
// (LINKIFIERVERSION). Every write to the list (create, update, delete, reorder) is one transaction
// conditioned on the version its checks read and raising it, so writes to one organization's list
// are serialized: a reorder never mixes with another reorder or with a concurrent create.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Linkifier } from '../models/linkifier';
import { documentClient, tableName } from './client';
import { queryPrefix, sendTransaction, stripKeys, type Item, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

/** The list changed since it was read (its version moved on). */
export class LinkifiersChangedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the linkifier list changed', options);
    this.name = 'LinkifiersChangedError';
  }
}

export type LinkifierList = { version: number; linkifiers: Linkifier[] };

/** The organization's linkifiers (unordered) with the version they were read at. */
export const readLinkifierList = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<LinkifierList> => {
  // The version is read first: a write between the two reads makes the version stale, never newer.
  const head = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.linkifierVersion(realmId), ConsistentRead: opts.consistent ?? false }),
  );
  return { version: Number(head.Item?.version ?? 0), linkifiers: await listLinkifiersOfRealm(realmId, opts) };
};

/** The organization's linkifiers, without the list's version (what rendering needs). One Query. */
export const listLinkifiersOfRealm = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<Linkifier[]> => {
  const k = entityKeys.linkifiersOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(
    (item) => stripKeys(item) as Linkifier,
  );
};

const versionItem = (realmId: number, expected: number): TransactItem => ({
  Update: {
    TableName: tableName('main'),
    Key: entityKeys.linkifierVersion(realmId),
    UpdateExpression: 'SET #v = :next',
    ConditionExpression: 'attribute_not_exists(#v) OR #v = :expected',
    ExpressionAttributeNames: { '#v': 'version' },
    ExpressionAttributeValues: { ':expected': expected, ':next': expected + 1 },
  },
});

export type LinkifierWrite = { put?: Linkifier[]; remove?: number[]; orders?: { id: number; order: number }[] };

/** The transaction for one change of the list read at `version`. */
export const buildLinkifierWriteInput = (realmId: number, version: number, write: LinkifierWrite): TransactItem[] => [
  versionItem(realmId, version),
  ...(write.put ?? []).map((l): TransactItem => ({
    Put: { TableName: tableName('main'), Item: { ...entityKeys.linkifier(realmId, l.id), ...l } },
  })),
  ...(write.remove ?? []).map((id): TransactItem => ({
    Delete: { TableName: tableName('main'), Key: entityKeys.linkifier(realmId, id), ConditionExpression: 'attribute_exists(pk)' },
  })),
  ...(write.orders ?? []).map(({ id, order }): TransactItem => ({
    Update: {
      TableName: tableName('main'),
      Key: entityKeys.linkifier(realmId, id),
      UpdateExpression: 'SET #order = :order',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#order': 'order' },
      ExpressionAttributeValues: { ':order': order },
    },
  })),
];

/** Applies a change to the list read at `version`; throws LinkifiersChangedError if it moved on. */
export const writeLinkifiers = async (realmId: number, version: number, write: LinkifierWrite): Promise<void> => {
  if (await sendTransaction(buildLinkifierWriteInput(realmId, version, write))) throw new LinkifiersChangedError();
};

export const toLinkifierItem = (l: Linkifier): Item => ({ ...entityKeys.linkifier(l.realmId, l.id), ...l });
