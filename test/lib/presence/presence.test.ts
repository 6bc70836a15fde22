// The pure parts of presence: the decision of what a report changes, the write transaction, the
// wire formats and the per-queue event filter; and keeping a row's user fields in step.
import { buildPresenceEvent, computePresenceChange, syncPresenceUserFields } from '../../../lib/actions/people/presence';
import { getPresenceResponse } from '../../../lib/state/presence';
import { eventForQueue } from '../../../lib/events/event-filters';
import { toLegacyPresence, toModernPresence, type Presence } from '../../../lib/models/presence';
import type { User } from '../../../lib/models/user';
import { tableName } from '../../../lib/store/client';
import * as presenceStore from '../../../lib/store/presence';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { queueDescriptor } from '../../helpers/events';

const NOW = 1800000000;

const user = { id: 10, realmId: 2, email: 'hamlet@zulip.com', isBot: false, isActive: true, dateJoined: 1700001000 } as User;

const row = (lastActiveTime: number | null, lastConnectedTime: number | null): Presence => ({
  realmId: 2,
  userId: 10,
  lastActiveTime,
  lastConnectedTime,
  lastUpdateId: 5,
  email: 'hamlet@zulip.com',
  isBot: false,
  isActive: true,
  dateJoined: 1700001000,
});

describe('computePresenceChange', () => {
  it.each([
    ['a first active report', undefined, 'active', { lastActiveTime: NOW, lastConnectedTime: NOW }, true, true],
    ['a first idle report', undefined, 'idle', { lastActiveTime: null, lastConnectedTime: NOW }, true, false],
    ['active 55 s after both', row(NOW - 55, NOW - 55), 'active', null, false, false],
    ['active 56 s after both', row(NOW - 56, NOW - 56), 'active', { lastActiveTime: NOW, lastConnectedTime: NOW }, false, false],
    ['idle 56 s after both', row(NOW - 56, NOW - 56), 'idle', { lastActiveTime: NOW - 56, lastConnectedTime: NOW }, false, false],
    ['active after 131 s away', row(NOW - 131, NOW - 10), 'active', { lastActiveTime: NOW, lastConnectedTime: NOW }, false, true],
    ['active after 130 s away', row(NOW - 130, NOW - 10), 'active', { lastActiveTime: NOW, lastConnectedTime: NOW }, false, false],
    ['active on a row never active', row(null, NOW - 10), 'active', { lastActiveTime: NOW, lastConnectedTime: NOW }, false, true],
    ['idle on a row never connected', row(null, null), 'idle', { lastActiveTime: null, lastConnectedTime: NOW }, false, false],
  ] as const)('%s', (_name, previous, status, times, created, becameOnline) => {
    const change = computePresenceChange(user, previous, status, NOW);
    expect(change.created).toBe(created);
    expect(change.becameOnline).toBe(becameOnline);
    if (times === null) expect(change.next).toBeNull();
    else
      expect(change.next).toEqual({
        realmId: 2,
        userId: 10,
        email: 'hamlet@zulip.com',
        isBot: false,
        isActive: true,
        dateJoined: 1700001000,
        ...times,
      });
  });
});

describe('presenceStore.buildWriteInput', () => {
  it('moves the sequence only from the value read and replaces the row only if unchanged', () => {
    const next = { ...row(NOW, NOW), lastUpdateId: 8 };
    expect(presenceStore.buildWriteInput(next, 7, 5)).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: tableName('main'),
            Key: { pk: 'REALM#2', sk: 'PRESENCESEQ' },
            UpdateExpression: 'SET #v = :next',
            ConditionExpression: '#v = :prev',
            ExpressionAttributeNames: { '#v': 'value' },
            ExpressionAttributeValues: { ':next': 8, ':prev': 7 },
          },
        },
        {
          Put: {
            TableName: tableName('main'),
            Item: {
              pk: 'REALM#2',
              sk: 'PRESENCE#000000000010',
              gsi1pk: 'PRESENCE#2',
              gsi1sk: '000000000008',
              gsi2pk: 'PRESENCECONN#2',
              gsi2sk: `00${NOW}`,
              realmId: 2,
              userId: 10,
              lastActiveTime: NOW,
              lastConnectedTime: NOW,
              lastUpdateId: 8,
              email: 'hamlet@zulip.com',
              isBot: false,
              isActive: true,
              dateJoined: 1700001000,
            },
            ConditionExpression: 'lastUpdateId = :prevRow',
            ExpressionAttributeValues: { ':prevRow': 5 },
          },
        },
      ],
    });
  });

  it('creates the sequence and the row when neither exists', () => {
    const input = presenceStore.buildWriteInput({ ...row(null, NOW), lastUpdateId: 1 }, 0, undefined);
    expect(input.TransactItems?.[0].Update?.ConditionExpression).toBe('attribute_not_exists(#v) OR #v = :prev');
    expect(input.TransactItems?.[1].Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  it('refuses a row that does not take the next id', () => {
    expect(() => presenceStore.buildWriteInput({ ...row(NOW, NOW), lastUpdateId: 9 }, 7, 5)).toThrow();
  });
});

describe('presence formats', () => {
  it.each([
    ['active within 70 s of the connection', row(NOW - 70, NOW), 'active', NOW - 70],
    ['idle beyond 70 s', row(NOW - 71, NOW), 'idle', NOW],
    ['never active: dated date_joined, idle', row(null, NOW), 'idle', NOW],
  ] as const)('legacy: %s', (_name, p, status, timestamp) => {
    expect(toLegacyPresence(p)).toEqual({
      aggregated: { client: 'website', status, timestamp },
      website: { client: 'website', status, timestamp, pushable: false },
    });
  });

  it('modern: both timestamps, date_joined for a time never set', () => {
    expect(toModernPresence(row(null, NOW))).toEqual({ active_timestamp: 1700001000, idle_timestamp: NOW });
  });
});

describe('the presence event filter', () => {
  const queue = queueDescriptor;
  const event = buildPresenceEvent(row(NOW, NOW), NOW + 0.5);
  const website = { client: 'website', status: 'active', timestamp: NOW, pushable: false };

  it.each([
    ['legacy', queue({}), { type: 'presence', user_id: 10, email: 'hamlet@zulip.com', server_timestamp: NOW + 0.5, presence: { website } }],
    ['slim', queue({ slimPresence: true }), { type: 'presence', user_id: 10, server_timestamp: NOW + 0.5, presence: { website } }],
    [
      'modern',
      queue({ slimPresence: true, capabilities: { simplified_presence_events: true } }),
      { type: 'presence', presences: { '10': { active_timestamp: NOW, idle_timestamp: NOW } } },
    ],
  ])('renders the %s shape, the same when applied twice', (_name, q, expected) => {
    const once = eventForQueue(q, event);
    expect(once).toEqual(expected);
    expect(eventForQueue(q, once!)).toEqual(expected);
  });
});

describe('syncPresenceUserFields', () => {
  it("removes a deactivated user's row from presence responses, and brings it back on reactivation", async () => {
    const realm = (await realmsStore.get(2))!;
    const iago = (await usersStore.get(2, 11))!;
    const emails = async () => Object.keys((await getPresenceResponse(realm, { slim: false })).presences).sort();
    expect(await emails()).toContain('iago@zulip.com');
    await syncPresenceUserFields({ ...iago, isActive: false });
    expect(await emails()).not.toContain('iago@zulip.com');
    await syncPresenceUserFields(iago);
    expect(await emails()).toContain('iago@zulip.com');
  });

  it('writes nothing for a user without a row', async () => {
    const aaron = (await usersStore.get(2, 6))!;
    await syncPresenceUserFields(aaron);
    expect(await presenceStore.get(2, 6)).toBeUndefined();
  });
});
