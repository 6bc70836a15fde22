// Reusable invitation links (realm partition, INVITE#<id>). Revocation is a conditional update
// from 'active' to 'revoked' that keeps the row, so of two concurrent revocations one wins.
import { DeleteCommand, GetCommand, UpdateCommand, type DeleteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EmailInvite, InviteByKey, MultiuseInvite } from '../models/invite';
import { documentClient, tableName } from './client';
import { batchPut, getByGsi1Key, type Item, queryPrefix, putNewItem, sendConditional, stripKeys } from './common';
import { entityKeys, lookupKey } from './keys';
import { MAX_ORGANIZATION_PENDING_INVITATIONS, MAX_ORGANIZATION_SETTINGS_OBJECTS } from './limits';

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

export const buildInviteItem = (invite: MultiuseInvite): Item => ({
  ...entityKeys.multiuseInvite(invite.realmId, invite.id),
  ...entityKeys.inviteByConfirmationKey(invite.confirmationKey),
  ...invite,
});

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

// Email invitations (realm partition, EMAILINVITE#<id>), found by their link's key through gsi1
// (CONFIRMATION#<key>) as reusable links are. Revocation deletes the row, as upstream deletes the
// PreregistrationUser; an expiring invitation carries the TTL attribute, so DynamoDB removes it
// some time after it expired (reads filter expired ones themselves).

/** How long after its expiry an email invitation's row stays (DynamoDB's TTL deletes it then). */
const EXPIRED_INVITE_KEPT_SECONDS = 30 * 24 * 60 * 60;

const toEmailInvite = (item: Item): EmailInvite => stripKeys(item) as EmailInvite;

export const buildEmailInviteItem = (invite: EmailInvite): Item => ({
  ...entityKeys.emailInvite(invite.realmId, invite.id),
  ...entityKeys.inviteByConfirmationKey(invite.confirmationKey),
  ...(invite.expiryDate === null ? {} : { expiresAt: invite.expiryDate + EXPIRED_INVITE_KEPT_SECONDS }),
  ...invite,
});

/** Writes new email invitations (fresh ids, so never over another). */
export const putEmailInvites = async (invites: EmailInvite[]): Promise<void> => {
  await batchPut('main', invites.map(buildEmailInviteItem));
};

/** An email invitation of an organization, or undefined (another organization's id looks missing). */
export const getEmailInvite = async (
  realmId: number,
  inviteId: number,
  opts: { consistent?: boolean } = {},
): Promise<EmailInvite | undefined> => {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: entityKeys.emailInvite(realmId, inviteId),
      ConsistentRead: opts.consistent ?? false,
    }),
  );
  return out.Item ? toEmailInvite(out.Item) : undefined;
};

/** Every stored email invitation of an organization (expired ones until the TTL removes them), in id order. */
export const listEmailInvitesOfRealm = async (realmId: number): Promise<EmailInvite[]> => {
  const k = entityKeys.emailInvitesOfRealm(realmId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_ORGANIZATION_PENDING_INVITATIONS })).map(toEmailInvite);
};

export const buildDeleteEmailInviteInput = (realmId: number, inviteId: number): DeleteCommandInput => ({
  TableName: tableName('main'),
  Key: entityKeys.emailInvite(realmId, inviteId),
  ConditionExpression: 'attribute_exists(pk)',
});

/** Deletes an email invitation; returns false when it was already gone (a lost race). */
export const deleteEmailInvite = async (realmId: number, inviteId: number): Promise<boolean> =>
  sendConditional(new DeleteCommand(buildDeleteEmailInviteInput(realmId, inviteId)));

/**
 * Marks an email invitation used (one account per invitation); false when it was already used or
 * is gone (revoked meanwhile).
 */
export const markEmailInviteUsed = async (realmId: number, inviteId: number): Promise<boolean> =>
  sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.emailInvite(realmId, inviteId),
      UpdateExpression: 'SET #status = :used',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#status)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':used': 'used' },
    }),
  );

/**
 * The invitation a /join/<key>/ link names, of either kind, as stored (the caller decides whether
 * it is expired, revoked or used), or undefined for a key nobody issued. Reusable links created
 * before their rows carried the key index are not found by it.
 */
export const getInviteByConfirmationKey = async (confirmationKey: string): Promise<InviteByKey | undefined> => {
  const k = lookupKey(() => entityKeys.inviteByConfirmationKey(confirmationKey));
  if (!k) return undefined;
  const item = await getByGsi1Key(k);
  if (!item) return undefined;
  return String(item.sk).startsWith('EMAILINVITE#')
    ? { kind: 'email', invite: toEmailInvite(item) }
    : { kind: 'multiuse', invite: toInvite(item) };
};

const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Invitation emails the organization sent on the UTC day of `now` (seconds). */
export const getInvitesSentOnDay = async (realmId: number, now: number): Promise<number> => {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('main'), Key: entityKeys.invitesSentOnDay(realmId, dayOf(now)), ConsistentRead: true }),
  );
  return Number(out.Item?.sent ?? 0);
};

export const buildCountInvitesSentInput = (realmId: number, now: number, count: number, max: number): UpdateCommandInput => ({
  TableName: tableName('main'),
  Key: entityKeys.invitesSentOnDay(realmId, dayOf(now)),
  UpdateExpression: 'ADD sent :n SET expiresAt = if_not_exists(expiresAt, :ttl)',
  ConditionExpression: 'attribute_not_exists(sent) OR sent <= :room',
  ExpressionAttributeValues: { ':n': count, ':room': max - count, ':ttl': now + 2 * 24 * 60 * 60 },
});

/**
 * Counts `count` invitation emails against the organization's day, unless that would pass `max`:
 * returns false then (and counts nothing), so two concurrent requests never pass it together.
 */
export const countInvitesSent = async (realmId: number, now: number, count: number, max: number): Promise<boolean> =>
  count <= max && sendConditional(new UpdateCommand(buildCountInvitesSentInput(realmId, now, count, max)));
