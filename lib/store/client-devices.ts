// Client devices: one item per device in its owner's partition.
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClientDevice, DevicePush } from '../models/client-device';
import { documentClient, tableName } from './client';
import { allocateIds, queryPrefix, putNewItem, sendConditional, stripKeys } from './common';
import { entityKeys } from './keys';
import { MAX_USER_OBJECTS } from './limits';

/** Stores a new device with a fresh id. */
export const createClientDevice = async (userId: number, createdAt: number): Promise<ClientDevice> => {
  const device: ClientDevice = { userId, deviceId: await allocateIds('clientDevice'), createdAt };
  await putNewItem('main', { ...entityKeys.clientDevice(userId, device.deviceId), ...device });
  return device;
};

export const getClientDevice = async (
  userId: number,
  deviceId: number,
  opts: { consistent?: boolean } = {},
): Promise<ClientDevice | undefined> => {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName('main'),
      Key: entityKeys.clientDevice(userId, deviceId),
      ConsistentRead: opts.consistent ?? false,
    }),
  );
  return out.Item ? (stripKeys(out.Item) as ClientDevice) : undefined;
};

export const listClientDevicesOfUser = async (userId: number): Promise<ClientDevice[]> => {
  const k = entityKeys.clientDevicesOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map((item) => stripKeys(item) as ClientDevice);
};

/** Removes a device of this user; false when it does not exist (or a concurrent removal came first). */
export const deleteClientDevice = (userId: number, deviceId: number): Promise<boolean> =>
  sendConditional(
    new DeleteCommand({
      TableName: tableName('main'),
      Key: entityKeys.clientDevice(userId, deviceId),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );

/**
 * Replaces a device's push registration if nobody changed it since `device` was read (its
 * pushVersion); false when the device is gone or another request changed the registration first.
 */
export const updateDevicePush = (device: ClientDevice, next: DevicePush): Promise<boolean> => {
  const version = device.pushVersion ?? 0;
  return sendConditional(
    new UpdateCommand({
      TableName: tableName('main'),
      Key: entityKeys.clientDevice(device.userId, device.deviceId),
      UpdateExpression: 'SET #push = :next, #version = :version',
      ConditionExpression:
        version === 0 ? 'attribute_exists(pk) AND attribute_not_exists(#version)' : 'attribute_exists(pk) AND #version = :previous',
      ExpressionAttributeNames: { '#push': 'push', '#version': 'pushVersion' },
      ExpressionAttributeValues: { ':next': next, ':version': version + 1, ...(version === 0 ? {} : { ':previous': version }) },
    }),
  );
};
