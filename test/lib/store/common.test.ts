// queryAll reads no more than the bound its caller names: more items than the bound is an error,
// or, when the caller asks to truncate, the first items in the query's order.
import { dbMetrics } from '../../../lib/store/client';
import { QueryBoundExceededError, batchPut, queryAll, queryPrefix } from '../../../lib/store/common';
import { tableName } from '../../../lib/store/client';

const PK = 'TEST#query-bounds';
const ITEMS = 30;

const input = () => ({
  TableName: tableName('main'),
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': PK },
  ConsistentRead: true,
});

beforeAll(async () => {
  await batchPut(
    'main',
    Array.from({ length: ITEMS }, (_, i) => ({ pk: PK, sk: `ITEM#${String(i).padStart(3, '0')}`, filler: 'x'.repeat(3000) })),
  );
});

describe('queryAll', () => {
  it('returns every item when there are no more than the bound', async () => {
    expect(await queryAll(input(), { max: ITEMS })).toHaveLength(ITEMS);
  });

  it('throws QueryBoundExceededError when there are more items than the bound', async () => {
    await expect(queryAll(input(), { max: ITEMS - 1 })).rejects.toThrow(QueryBoundExceededError);
    await expect(queryPrefix('main', PK, 'ITEM#', { max: 5 })).rejects.toThrow(`query of ${PK} has more than 5 items`);
  });

  it('returns the first items in the query order when asked to truncate', async () => {
    const newest = await queryAll({ ...input(), ScanIndexForward: false }, { max: 3, overflow: 'truncate' });
    expect(newest.map((item) => item.sk)).toEqual(['ITEM#029', 'ITEM#028', 'ITEM#027']);
  });

  it('asks DynamoDB for no more items than the bound, in capacity as well', async () => {
    dbMetrics.reset();
    await queryAll(input(), { max: ITEMS });
    const all = dbMetrics.snapshot().readUnits;
    dbMetrics.reset();
    await queryAll(input(), { max: 3, overflow: 'truncate' });
    const three = dbMetrics.snapshot().readUnits;
    dbMetrics.reset();
    await expect(queryAll(input(), { max: 3 })).rejects.toThrow(QueryBoundExceededError);
    const fourForTheError = dbMetrics.snapshot().readUnits;
    expect(all).toBeGreaterThan(0);
    expect(three).toBeLessThan(all / 5);
    expect(fourForTheError).toBeLessThan(all / 5);
  });
});
