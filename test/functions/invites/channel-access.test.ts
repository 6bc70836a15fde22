// POST /invites/multiuse checks its channels with the one channel-access module
// (lib/access/channels.ts): upstream's access_stream_by_id, where the invites' own copy of the
// rule knew only "public or subscribed".
import { handler as create } from '../../../functions/invites/create-multiuse';
import type { GroupSettingValue } from '../../../lib/models/realm';
import { dbMetrics } from '../../../lib/store/client';
import * as invitesStore from '../../../lib/store/invites';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel, setSubscribed } from '../../helpers/channels';

const IAGO = 11;
const CORE_TEAM = 6;
const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };
const post = (params: Record<string, unknown>) => call(create, { method: 'POST', path: '/invites/multiuse', as: 'iago@zulip.com', params });
const count = async () => (await invitesStore.listInvitesOfRealm(2)).length;

describe('POST /invites/multiuse with a private channel the administrator left', () => {
  beforeAll(() => setSubscribed(2, IAGO, CORE_TEAM, false));

  it('refuses it when the administrator is in none of its content groups, and creates nothing', async () => {
    await changeChannel(2, CORE_TEAM, { groupSettings: { can_add_subscribers_group: NOBODY, can_subscribe_group: NOBODY } });
    const before = await count();
    expectError(await post({ stream_ids: [CORE_TEAM] }), 'Invalid channel ID 6. No invites were sent.');
    expect(await count()).toBe(before);
  });

  it("accepts it when the administrator is in the channel's can_add_subscribers_group, as upstream's content access does", async () => {
    await changeChannel(2, CORE_TEAM, { groupSettings: { can_add_subscribers_group: { direct_members: [IAGO], direct_subgroups: [] } } });
    const { invite_link } = expectSuccess(await post({ stream_ids: [CORE_TEAM] }));
    const created = (await invitesStore.listInvitesOfRealm(2)).find((i) => invite_link.includes(i.confirmationKey));
    expect(created?.streamIds).toEqual([CORE_TEAM]);
  });
});

describe('POST /invites/multiuse with one channel id repeated', () => {
  it('checks each distinct channel once: 50,000 copies of one id cost the reads of one', async () => {
    dbMetrics.reset();
    expectSuccess(await post({ stream_ids: [3] }));
    const once = dbMetrics.snapshot().requests;
    dbMetrics.reset();
    const { invite_link } = expectSuccess(await post({ stream_ids: Array.from({ length: 50_000 }, () => 3) }));
    expect(dbMetrics.snapshot().requests).toBe(once);
    const created = (await invitesStore.listInvitesOfRealm(2)).find((i) => invite_link.includes(i.confirmationKey));
    expect(created?.streamIds).toEqual([3]);
  });
});
