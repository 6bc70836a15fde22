// Custom emoji (realm partition, EMOJI#<id>) and the organization's emoji-list version item
// (EMOJIVERSION). Every change (an upload, a deactivation) is one transaction conditioned on the
// version its checks read and raising it, so the changes of one organization's emoji are
// serialized: two uploads of one name cannot both pass the "name is free" check.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RealmEmoji } from '../models/realm-emoji';
import { documentClient, tableName } from './client';
import { queryPrefix, sendTransaction, stripKeys, type TransactItem } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

/** The list changed since it was read (its version moved on). */
export class RealmEmojiChangedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the custom emoji list changed', options);
    this.name = 'RealmEmojiChangedError';
  }
}

export type RealmEmojiList = { version: number; emoji: RealmEmoji[] };

/** The organization's custom emoji, deactivated ones included, in id order. One Query. */
export const listRealmEmoji = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<RealmEmoji[]> => {
  const k = entityKeys.realmEmojiOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { ...opts, max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(
    (item) => stripKeys(item) as RealmEmoji,
  );
};

/** The organization's custom emoji with the version they were read at. */
export const readRealmEmojiList = async (realmId: number, opts: { consistent?: boolean } = {}): Promise<RealmEmojiList> => {
  // The version is read first: a write between the two reads makes the version stale, never newer.
  const head = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.realmEmojiVersion(realmId), ConsistentRead: opts.consistent ?? false }),
  );
  return { version: Number(head.Item?.version ?? 0), emoji: await listRealmEmoji(realmId, opts) };
};

/** The transaction writing `emoji` (a new one, or a changed one) over the list read at `version`. */
export const buildPutRealmEmojiInput = (emoji: RealmEmoji, version: number, opts: { isNew: boolean }): TransactItem[] => [
  {
    Update: {
      TableName: tableName('main'),
      Key: entityKeys.realmEmojiVersion(emoji.realmId),
      UpdateExpression: 'SET #v = :next',
      ConditionExpression: 'attribute_not_exists(#v) OR #v = :expected',
      ExpressionAttributeNames: { '#v': 'version' },
      ExpressionAttributeValues: { ':expected': version, ':next': version + 1 },
    },
  },
  {
    Put: {
      TableName: tableName('main'),
      Item: { ...entityKeys.realmEmoji(emoji.realmId, emoji.id), ...emoji },
      ConditionExpression: opts.isNew ? 'attribute_not_exists(pk)' : 'attribute_exists(pk)',
    },
  },
];

/** Writes one emoji over the list read at `version`; throws RealmEmojiChangedError if the list moved on. */
export const putRealmEmoji = async (emoji: RealmEmoji, version: number, opts: { isNew: boolean }): Promise<void> => {
  if (await sendTransaction(buildPutRealmEmojiInput(emoji, version, opts))) throw new RealmEmojiChangedError();
};
