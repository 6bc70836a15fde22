// Drafts, in their owner's partition (USER#<uid> / DRAFT#<id>), with a second access path by last
// edit time (gsi1 DRAFTS#<uid>) for register's "newest 1000". Every read is scoped to the caller
// by the key itself: another user's draft id simply is not in the caller's partition.
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Draft, DraftType } from '../models/draft';
import { documentClient, tableName } from './client';
import { type Item, queryAll, queryPrefix, sendConditional, sendTransaction } from './common';
import { entityKeys } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const editTimeMicros = (timestamp: number): number => Math.round(timestamp * 1e6);

const toDraft = (item: Item): Draft => ({
  id: Number(item.id),
  userId: Number(item.userId),
  type: item.type as DraftType,
  to: (item.to as number[]).map(Number),
  topic: String(item.topic),
  content: String(item.content),
  timestamp: Number(item.timestamp),
});

/** The stored item of a draft, with its edit-time access path. */
export const buildDraftItem = (draft: Draft): Item => ({
  ...entityKeys.draft(draft.userId, draft.id),
  ...entityKeys.draftByEditTime(draft.userId, editTimeMicros(draft.timestamp), draft.id),
  id: draft.id,
  userId: draft.userId,
  type: draft.type,
  to: draft.to,
  topic: draft.topic,
  content: draft.content,
  timestamp: draft.timestamp,
});

/** All drafts in one transaction, each refused if its id is taken: none is written unless all are. */
export const buildCreateDraftsInput = (drafts: Draft[]): TransactWriteCommandInput => ({
  TransactItems: drafts.map((d) => ({
    Put: { TableName: tableName('main'), Item: buildDraftItem(d), ConditionExpression: 'attribute_not_exists(pk)' },
  })),
});

/** Replaces a draft only if it still exists (a concurrent delete wins). */
export const buildReplaceDraftInput = (draft: Draft): PutCommandInput => ({
  TableName: tableName('main'),
  Item: buildDraftItem(draft),
  ConditionExpression: 'attribute_exists(pk)',
});

export const buildNewestDraftsInput = (userId: number, limit: number): QueryCommandInput => ({
  TableName: tableName('main'),
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': entityKeys.draftsByEditTime(userId).gsi1pk },
  ScanIndexForward: false,
  Limit: limit,
});

/** A draft of this user, or undefined (strongly consistent). */
export const getDraft = async (userId: number, draftId: number): Promise<Draft | undefined> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.draft(userId, draftId), ConsistentRead: true }),
  );
  return out.Item ? toDraft(out.Item) : undefined;
};

/** Every draft of a user (strongly consistent; the caller orders them). */
export const listDraftsOfUser = async (userId: number): Promise<Draft[]> => {
  const k = entityKeys.draft(userId, 0);
  return (await queryPrefix('main', k.pk, 'DRAFT#', { consistent: true, max: MAX_USER_OBJECTS })).map(toDraft);
};

/** At most `limit` drafts of a user, most recently edited first (reads only those). */
export const listNewestDraftsOfUser = async (userId: number, limit: number): Promise<Draft[]> => {
  return (await queryAll(buildNewestDraftsInput(userId, limit), { max: limit, overflow: 'truncate' })).map(toDraft);
};

/** Writes new drafts all together (at most MAX_TRANSACTION_ITEMS). */
export const createDrafts = async (drafts: Draft[]): Promise<void> => {
  if (drafts.length === 0) return;
  // The ids are freshly allocated, so no condition can fail unless the id counter is broken.
  const loss = await sendTransaction(buildCreateDraftsInput(drafts).TransactItems ?? []);
  if (loss) throw new Error(`creating drafts lost a race (${loss.reasons.join(',')}): their ids were taken`);
};

/** Replaces an existing draft; false if it no longer exists. */
export const replaceDraft = async (draft: Draft): Promise<boolean> => {
  return sendConditional(new PutCommand(buildReplaceDraftInput(draft)));
};

/** Deletes a draft of this user; false if there was none. */
export const deleteDraft = async (userId: number, draftId: number): Promise<boolean> => {
  return sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.draft(userId, draftId),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
};
