// A presence report and an incremental poll cost the same DynamoDB requests whatever the size of
// the organization: the same scenario, run before and after adding 300 users with presence rows,
// makes the same requests, but for the event, which an organization of more than 100 active users
// does not get (upstream's cut-off: its clients poll presence). (Latency and capacity figures:
// npm run bench.)
import { handler } from '../../../functions/presence/update';
import { dbMetrics } from '../../../lib/store/client';
import * as presenceStore from '../../../lib/store/presence';
import { seedDevRealm } from '../../../scripts/seed';
import { authFor, call, expectSuccess } from '../../helpers/api';
import { ZULIP, advanceSeconds, freezeClock, resetPresence } from './presence-fixture';

type Requests = Record<string, number>;

const measure = async (authorization: string, params: Record<string, unknown>): Promise<Requests> => {
  dbMetrics.reset();
  expectSuccess(await call(handler, { method: 'POST', path: '/users/me/presence', authorization, params }));
  return dbMetrics.snapshot().byCommand;
};

/** hamlet comes online, pings again a minute later, pings within the minute, then polls with nothing new. */
const scenario = async (): Promise<Record<string, Requests>> => {
  const hamlet = await authFor('hamlet@zulip.com');
  advanceSeconds(3600);
  const comesOnline = await measure(hamlet, { status: 'active', ping_only: true });
  advanceSeconds(60);
  const rewrite = await measure(hamlet, { status: 'active', ping_only: true });
  const unchanged = await measure(hamlet, { status: 'active', ping_only: true });
  const lastUpdateId = await presenceStore.getSequence(ZULIP);
  const poll = await measure(hamlet, { status: 'active', last_update_id: lastUpdateId });
  return { comesOnline, rewrite, unchanged, poll };
};

afterEach(() => {
  jest.useRealTimers();
});

describe('presence cost', () => {
  it('makes the same DynamoDB requests at 13 users and at 313', async () => {
    const T = freezeClock();
    await resetPresence(T);
    const small = await scenario();
    await seedDevRealm({ extraUsers: 300 });
    const large = await scenario();
    const { UpdateItemCommand: _allocate, PutItemCommand: _append, ...withoutEvent } = small.comesOnline;
    expect(large).toEqual({ ...small, comesOnline: withoutEvent });
    // Authentication (API-key query, realm get), then one consistent batch read of the row and the
    // sequence, one transaction when the row changes, and when the user comes online one query
    // counting active users up to 101 and the event's two writes when it is sent.
    expect(small).toEqual({
      comesOnline: {
        QueryCommand: 2,
        GetItemCommand: 1,
        BatchGetItemCommand: 1,
        TransactWriteItemsCommand: 1,
        UpdateItemCommand: 1,
        PutItemCommand: 1,
      },
      rewrite: { QueryCommand: 1, GetItemCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 },
      unchanged: { QueryCommand: 1, GetItemCommand: 1, BatchGetItemCommand: 1 },
      poll: { QueryCommand: 2, GetItemCommand: 1, BatchGetItemCommand: 1 },
    });
  });
});
