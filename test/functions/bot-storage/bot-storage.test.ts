import { handler as getStorage } from '../../../functions/bot-storage/get';
import { handler as removeStorage } from '../../../functions/bot-storage/remove';
import { handler as updateStorage } from '../../../functions/bot-storage/update';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { BOT_STORAGE_ENTRY_LIMIT, BOT_STORAGE_SIZE_LIMIT } from '../../../lib/actions/people/bot-storage';
import { documentClient, tableName } from '../../../lib/store/client';
import { entityKeys } from '../../../lib/store/keys';
import * as botStorageStore from '../../../lib/store/bot-storage';
import { call, expectError, expectSuccess } from '../../helpers/api';

const BOT = 'default-bot@zulip.com';
const BOT_ID = 16;
const put = (as: string, storage: unknown) => call(updateStorage, { method: 'PUT', path: '/bot_storage', as, params: { storage } });
const get = (as: string, keys?: unknown) =>
  call(getStorage, { method: 'GET', path: '/bot_storage', as, params: keys === undefined ? {} : { keys } });
const remove = (as: string, keys?: unknown) =>
  call(removeStorage, { method: 'DELETE', path: '/bot_storage', as, params: keys === undefined ? {} : { keys } });
const snapshot = async () => ({ entries: await botStorageStore.listEntries(BOT_ID), size: await botStorageStore.getSize(BOT_ID) });

describe('/bot_storage', () => {
  beforeEach(async () => {
    await remove(BOT);
  });

  it('stores values and returns the ones asked for', async () => {
    expectSuccess(await put(BOT, { score: '10', board: '[[0,1],[1,0]]' }));
    expect(expectSuccess(await get(BOT, ['score'])).storage).toEqual({ score: '10' });
    expect(expectSuccess(await get(BOT)).storage).toEqual({ score: '10', board: '[[0,1],[1,0]]' });
  });

  it('overwrites a key and keeps the running size exact', async () => {
    expectSuccess(await put(BOT, { score: '10' }));
    expectSuccess(await put(BOT, { score: '1000' }));
    expect(await snapshot()).toEqual({ entries: [{ key: 'score', value: '1000' }], size: 'score'.length + 4 });
  });

  it('shows each user only their own storage', async () => {
    expectSuccess(await put(BOT, { secret: 'bot' }));
    expect(expectSuccess(await get('iago@zulip.com')).storage).toEqual({});
    expectError(await get('iago@zulip.com', ['secret']), 'Key does not exist.');
  });

  it('answers "Key does not exist." for a missing key', async () => {
    expectSuccess(await put(BOT, { a: '1' }));
    expectError(await get(BOT, ['a', 'missing']), 'Key does not exist.');
  });

  it('removes the keys named, and everything without keys', async () => {
    expectSuccess(await put(BOT, { a: '1', b: '2', c: '3' }));
    expectSuccess(await remove(BOT, ['a']));
    expect(expectSuccess(await get(BOT)).storage).toEqual({ b: '2', c: '3' });
    expectSuccess(await remove(BOT));
    expect(await snapshot()).toEqual({ entries: [], size: 0 });
  });

  it('removes nothing when one of the keys does not exist', async () => {
    expectSuccess(await put(BOT, { a: '1', b: '2' }));
    const before = await snapshot();
    expectError(await remove(BOT, ['a', 'missing']), 'Key does not exist.');
    expect(await snapshot()).toEqual(before);
  });

  it("refuses an entry larger than one item holds, in upstream's words, and stores nothing", async () => {
    expectSuccess(await put(BOT, { a: '1' }));
    const before = await snapshot();
    const value = 'x'.repeat(BOT_STORAGE_ENTRY_LIMIT);
    expectError(
      await put(BOT, { b: '2', big: value }),
      `Request exceeds storage limit by 3 characters. The limit is ${BOT_STORAGE_ENTRY_LIMIT} characters.`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a change that takes the whole storage past upstream's limit, and stores nothing", async () => {
    // A storage that already holds all but 5 characters of the limit (its running size).
    await documentClient().send(
      new PutCommand({ TableName: tableName('main'), Item: { ...entityKeys.botStorageSize(BOT_ID), size: BOT_STORAGE_SIZE_LIMIT - 5 } }),
    );
    try {
      expectSuccess(await put(BOT, { abc: 'de' }));
      expectError(
        await put(BOT, { f: 'gh' }),
        `Request exceeds storage limit by 3 characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`,
      );
      expect(await snapshot()).toEqual({ entries: [{ key: 'abc', value: 'de' }], size: BOT_STORAGE_SIZE_LIMIT });
    } finally {
      await documentClient().send(
        new PutCommand({ TableName: tableName('main'), Item: { ...entityKeys.botStorageSize(BOT_ID), size: 5 } }),
      );
    }
  });

  it.each([
    [{ a: 1 }, 'storage["a"] is not a string'],
    [['a'], 'storage is not a dict'],
  ])('refuses storage %j with "%s"', async (storage, msg) => {
    const before = await snapshot();
    expectError(await put(BOT, storage), msg);
    expect(await snapshot()).toEqual(before);
  });

  it('requires storage', async () => {
    expectError(
      await call(updateStorage, { method: 'PUT', path: '/bot_storage', as: BOT, params: {} }),
      "Missing 'storage' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('counts every concurrent write in the running size', async () => {
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => put(BOT, { [`k${i}`]: 'v'.repeat(i + 1) })).map(async (p) => expectSuccess(await p)),
    );
    const { entries, size } = await snapshot();
    expect(entries).toHaveLength(5);
    expect(size).toBe(entries.reduce((sum, e) => sum + e.key.length + e.value.length, 0));
  });
});
