// The development seed is idempotent: seeding again writes nothing and leaves every item as it was
// (API keys included), with or without extra users.
import { queryAll } from '../../lib/store/common';
import { tableName } from '../../lib/store/client';
import * as usersStore from '../../lib/store/users';
import { seedDevRealm } from '../../scripts/seed';

const PARTITIONS = [
  'REALM#2',
  'REALM#3',
  'USER#10',
  'USER#11',
  'USER#18',
  'USER#20',
  'COUNTER#user',
  'COUNTER#message#2',
  'COUNTER#draft',
  'MSG#2#7',
  'CHANNEL#3',
];

/** Every item of a few partitions, read consistently, in key order. */
const snapshot = async (): Promise<Record<string, unknown[]>> => {
  const out: Record<string, unknown[]> = {};
  for (const pk of PARTITIONS) {
    out[pk] = await queryAll(
      {
        TableName: tableName('main'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      },
      { max: 10_000 },
    );
  }
  return out;
};

describe('seedDevRealm', () => {
  it('has seeded both organizations with their users, each with a 32-character API key', async () => {
    const users = await usersStore.listOfRealm(2);
    expect(users.map((u) => u.email)).toContain('iago@zulip.com');
    expect(users.every((u) => /^[A-Za-z0-9]{32}$/.test(u.apiKey))).toBe(true);
    expect((await usersStore.listOfRealm(3)).map((u) => u.email).sort()).toEqual(['edgar@lear.org', 'king@lear.org']);
  });

  it('writes nothing and changes nothing when run again', async () => {
    const before = await snapshot();
    expect(before['REALM#2'].length).toBeGreaterThan(20);
    expect(await seedDevRealm()).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it('adds extra users once, subscribed to Verona with presence rows, and not again', async () => {
    const first = await seedDevRealm({ extraUsers: 30 });
    expect(first).toBeGreaterThanOrEqual(30 * 3);
    const after = await snapshot();
    const realm = after['REALM#2'] as { sk: string; lastConnectedTime?: number }[];
    expect(realm.filter((i) => i.sk.startsWith('USER#1000'))).toHaveLength(30);
    const presence = realm.filter((i) => /^PRESENCE#0*1000\d\d$/.test(i.sk));
    expect(presence).toHaveLength(30);
    const now = Date.now() / 1000;
    expect(presence.every((p) => p.lastConnectedTime! > now - 21 * 86400 && p.lastConnectedTime! <= now)).toBe(true);
    const [extra] = await usersStore.listByEmail((realm.find((i) => i.sk.startsWith('USER#1000')) as unknown as { email: string }).email);
    const subs = await queryAll(
      {
        TableName: tableName('main'),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${extra.id}` },
      },
      { max: 100 },
    );
    expect(subs.map((s) => s.sk)).toContain('SUB#000000000003');

    expect(await seedDevRealm({ extraUsers: 30 })).toBe(0);
    expect(await snapshot()).toEqual(after);
  });
});
