// sendTransaction: the one place that tells how a DynamoDB transaction failed. Against DynamoDB Local.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../lib/store/client';
import { MAX_TRANSACTION_ITEMS, sendTransaction, type TransactItem } from '../../../lib/store/common';

const key = (name: string) => ({ pk: 'TEST#transactions', sk: name });
const put = (name: string, condition?: string): TransactItem => ({
  Put: { TableName: tableName('main'), Item: { ...key(name), value: 1 }, ...(condition ? { ConditionExpression: condition } : {}) },
});
const exists = async (name: string): Promise<boolean> =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key(name), ConsistentRead: true }))).Item !== undefined;

describe('sendTransaction', () => {
  it('writes every item and answers undefined when every condition holds', async () => {
    expect(await sendTransaction([put('a'), put('b', 'attribute_not_exists(pk)')])).toBeUndefined();
    expect([await exists('a'), await exists('b')]).toEqual([true, true]);
  });

  it('answers a lost condition with the reason of each item, and writes nothing', async () => {
    await sendTransaction([put('taken')]);
    const loss = await sendTransaction([put('c'), put('taken', 'attribute_not_exists(pk)')]);
    expect(loss).toEqual({ lost: 'condition', reasons: ['None', 'ConditionalCheckFailed'] });
    expect(await exists('c')).toBe(false);
  });

  it('throws a failure that is not a lost race (adding a number to a string) instead of answering it as one', async () => {
    await sendTransaction([{ Put: { TableName: tableName('main'), Item: { ...key('text'), value: 'x' } } }]);
    const addToString: TransactItem = {
      Update: {
        TableName: tableName('main'),
        Key: key('text'),
        UpdateExpression: 'SET #v = #v + :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': 1 },
      },
    };
    const error = await sendTransaction([put('d'), addToString]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).toMatch(/TransactionCanceledException|ValidationException/);
    expect(await exists('d')).toBe(false);
  });

  it(`refuses more than DynamoDB's ${MAX_TRANSACTION_ITEMS} items before sending`, async () => {
    const items = Array.from({ length: MAX_TRANSACTION_ITEMS + 1 }, (_, i) => put(`many${i}`));
    await expect(sendTransaction(items)).rejects.toThrow(
      `at most ${MAX_TRANSACTION_ITEMS} items per transaction, got ${MAX_TRANSACTION_ITEMS + 1}`,
    );
    expect(await exists('many0')).toBe(false);
  });
});
