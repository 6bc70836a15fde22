// Conditional writes are safe to retry: when DynamoDB applied a write but its answer was lost, the
// SDK's retry finds the write's own effect, which sendConditional and sendTransaction answer as
// the success it was, and only that. Against DynamoDB Local behind the fault proxy.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../lib/store/client';
import { sendConditional, sendTransaction, writeConditional } from '../../../lib/store/common';
import { startDynamoFaults, type DynamoFaults } from '../../helpers/dynamo-faults';

let n = 0;
const newKey = () => ({ pk: 'TEST#retries', sk: `item${(n += 1)}` });
const stored = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }))).Item;
const putNew = (key: { pk: string; sk: string }, fields: Record<string, unknown>) =>
  new PutCommand({ TableName: tableName('main'), Item: { ...key, ...fields }, ConditionExpression: 'attribute_not_exists(pk)' });

describe('a conditional write whose answer is lost', () => {
  let faults: DynamoFaults | undefined;
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
  });
  const lose = async (op: string) => {
    faults = await startDynamoFaults();
    faults.inject({ op, fault: 'applyThenDrop' });
    return faults;
  };

  it('is written when the retry finds the very item it put', async () => {
    const key = newKey();
    const f = await lose('PutItem');
    expect(await sendConditional(putNew(key, { value: 1.5, tags: new Set(['a', 'b']), nested: { list: [1, 'x', null] } }))).toBe(true);
    expect(f.log.map((e) => `${e.op} ${e.fault ?? 'answered'}`)).toEqual(['PutItem applyThenDrop', 'PutItem answered']);
    expect(await stored(key)).toEqual({ ...key, value: 1.5, tags: new Set(['a', 'b']), nested: { list: [1, 'x', null] } });
  });

  it("is refused when the retry finds another request's item (its own first attempt failed)", async () => {
    const key = newKey();
    await sendConditional(putNew(key, { value: 'theirs' }));
    faults = await startDynamoFaults();
    faults.inject({ op: 'PutItem', fault: 'error500' });
    expect(await writeConditional(putNew(key, { value: 'mine' }))).toEqual({ written: false, stored: { ...key, value: 'theirs' } });
    expect((await stored(key))?.value).toBe('theirs');
  });

  it('is written when the retry finds the values its SET and REMOVE clauses wrote', async () => {
    const key = newKey();
    await sendConditional(putNew(key, { version: 1, extras: { old: 1 } }));
    await lose('UpdateItem');
    const update = new UpdateCommand({
      TableName: tableName('main'),
      Key: key,
      UpdateExpression: 'SET #v = :next, extras.#k = :val REMOVE extras.#old',
      ConditionExpression: '#v = :current',
      ExpressionAttributeNames: { '#v': 'version', '#k': 'new', '#old': 'old' },
      ExpressionAttributeValues: { ':next': 2, ':current': 1, ':val': 'added' },
    });
    expect(await sendConditional(update)).toBe(true);
    expect(await stored(key)).toEqual({ ...key, version: 2, extras: { new: 'added' } });
  });

  it('is refused when its update cannot be recognised in the stored item (an ADD), unless the caller recognises it', async () => {
    const key = newKey();
    await sendConditional(putNew(key, { count: 0, version: 1 }));
    const add = () =>
      new UpdateCommand({
        TableName: tableName('main'),
        Key: key,
        UpdateExpression: 'ADD #c :one SET #v = :next',
        ConditionExpression: '#v = :current',
        ExpressionAttributeNames: { '#c': 'count', '#v': 'version' },
        ExpressionAttributeValues: { ':one': 1, ':next': 2, ':current': 1 },
      });
    await lose('UpdateItem');
    expect(await sendConditional(add())).toBe(false);
    await faults!.stop();
    await documentClient().send(new PutCommand({ TableName: tableName('main'), Item: { ...key, count: 0, version: 1 } }));
    await lose('UpdateItem');
    expect(await sendConditional(add(), { ownWrite: (item) => item?.version === 2 })).toBe(true);
    expect(await stored(key)).toEqual({ ...key, count: 1, version: 2 });
  });

  it('is written when a delete finds the item gone', async () => {
    const key = newKey();
    await sendConditional(putNew(key, { owner: 7 }));
    await lose('DeleteItem');
    const del = new DeleteCommand({
      TableName: tableName('main'),
      Key: key,
      ConditionExpression: 'attribute_exists(pk) AND #o = :me',
      ExpressionAttributeNames: { '#o': 'owner' },
      ExpressionAttributeValues: { ':me': 7 },
    });
    expect(await sendConditional(del)).toBe(true);
    expect(await stored(key)).toBeUndefined();
  });

  it('is refused on its first attempt as before, with the item it found', async () => {
    const key = newKey();
    await sendConditional(putNew(key, { value: 1 }));
    expect(await writeConditional(putNew(key, { value: 1 }))).toEqual({ written: false, stored: { ...key, value: 1 } });
  });
});

describe('a transaction whose answer is lost', () => {
  let faults: DynamoFaults | undefined;
  afterEach(async () => {
    await faults?.stop();
    faults = undefined;
  });

  it('is written once: its ClientRequestToken makes the retry answer success without applying it again', async () => {
    const [a, counter] = [newKey(), newKey()];
    faults = await startDynamoFaults();
    faults.inject({ op: 'TransactWriteItems', fault: 'applyThenDrop' });
    const loss = await sendTransaction([
      { Put: { TableName: tableName('main'), Item: { ...a, value: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName('main'),
          Key: counter,
          UpdateExpression: 'ADD #c :one',
          ExpressionAttributeNames: { '#c': 'count' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ]);
    expect(faults.log.map((e) => `${e.op} ${e.fault ?? 'answered'}`)).toEqual([
      'TransactWriteItems applyThenDrop',
      'TransactWriteItems answered',
    ]);
    expect(faults.log[0]!.body.ClientRequestToken).toEqual(expect.any(String));
    expect(faults.log[1]!.body.ClientRequestToken).toBe(faults.log[0]!.body.ClientRequestToken);
    expect(loss).toBeUndefined();
    expect((await stored(counter))?.count).toBe(1);
  });
});
