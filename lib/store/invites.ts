// Reusable invitation links (realm partition, INVITE#<id>). Revocation is a conditional update
// from 'active' to 'revoked' that keeps the row, so of two concurrent revocations one wins.
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { MultiuseInvite } from '../models/invite';
import { documentClient, tableName } from './client';
import { type Item, queryPrefix, putNewItem, sendConditional, stripKeys } from './common';
import { entityKeys } from './keys';
import { MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

const toInvite = (item: Item): MultiuseInvite => stripKeys(item) as MultiuseInvite;

/** An invitation link of an organization, or undefined (another organization's id looks missing). */
export const getInvite = async (
  realmId: number,
  inviteId: number,
  opts: { consistent?: boolean } = {},
): Promise<MultiuseInvite | undefined> => {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: entityKeys.multiuseInvite(realmId, inviteId),
      ConsistentRead: opts.consistent ?? false,
    }),
  );
  return out.Item ? toInvite(out.Item) : undefined;
};

/** Every invitation link of an organization (bounded by what its administrators created), in id order. */
export const listInvitesOfRealm = async (realmId: number): Promise<MultiuseInvite[]> => {
  const k = entityKeys.invitesOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_ORGANIZATION_SETTINGS_OBJECTS })).map(toInvite);
};

export const buildInviteItem = (invite: MultiuseInvite): Item => ({ ...entityKeys.multiuseInvite(invite.realmId, invite.id), ...invite });

export const putInvite = async (invite: MultiuseInvite): Promise<void> => {
  await putNewItem('main', buildInviteItem(invite));
};

export const buildRevokeInviteInput = (realmId: number, inviteId: number): UpdateCommandInput => ({
  TableName: tableName('main'),
  Key: entityKeys.multiuseInvite(realmId, inviteId),
  UpdateExpression: 'SET #status = :revoked',
  ConditionExpression: 'attribute_exists(pk) AND #status = :active',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: { ':revoked': 'revoked', ':active': 'active' },
});

/** Revokes an active invitation; returns false when it was no longer active (a lost race). */
export const revokeInvite = async (realmId: number, inviteId: number): Promise<boolean> => {
  return sendConditional(new UpdateCommand(buildRevokeInviteInput(realmId, inviteId)));
};
