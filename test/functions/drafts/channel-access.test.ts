// POST /drafts to a channel uses the one channel-access module (lib/access/channels.ts): the
// cases where the drafts' own copy of the rule used to differ from upstream's access_stream_by_id.
import { handler as createDrafts } from '../../../functions/drafts/create';
import type { GroupSettingValue } from '../../../lib/models/realm';
import * as draftsStore from '../../../lib/store/drafts';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { changeChannel } from '../../helpers/channels';

const CORDELIA = 8;
const CORE_TEAM = 6;
const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };
const only = (userId: number): GroupSettingValue => ({ direct_members: [userId], direct_subgroups: [] });
const setGroups = (subscribe: GroupSettingValue, addSubscribers: GroupSettingValue) =>
  changeChannel(2, CORE_TEAM, { groupSettings: { can_subscribe_group: subscribe, can_add_subscribers_group: addSubscribers } });
const post = (as: string, to: number[]) =>
  call(createDrafts, {
    method: 'POST',
    path: '/drafts',
    as,
    params: { drafts: [{ type: 'stream', to, topic: 'plans', content: 'Hello', timestamp: 1595479019 }] },
  });

describe('POST /drafts to a private channel', () => {
  it("accepts a member of the channel's can_subscribe_group who is not subscribed, as upstream's content access does", async () => {
    await setGroups(only(CORDELIA), NOBODY);
    const { ids } = expectSuccess(await post('cordelia@zulip.com', [CORE_TEAM]));
    expect((await draftsStore.getDraft(CORDELIA, ids[0]))?.to).toEqual([CORE_TEAM]);
  });

  it("accepts a member of the channel's can_add_subscribers_group who is not subscribed", async () => {
    await setGroups(NOBODY, only(CORDELIA));
    expectSuccess(await post('cordelia@zulip.com', [CORE_TEAM]));
  });

  it('refuses a member in neither group, and writes nothing', async () => {
    await setGroups(NOBODY, NOBODY);
    const before = await draftsStore.listDraftsOfUser(CORDELIA);
    expectError(await post('cordelia@zulip.com', [CORE_TEAM]), 'Invalid channel ID');
    expect(await draftsStore.listDraftsOfUser(CORDELIA)).toEqual(before);
  });

  it('refuses a guest even when the guest is in the channel’s can_subscribe_group', async () => {
    await setGroups(only(13), only(13));
    expectError(await post('polonius@zulip.com', [CORE_TEAM]), 'Invalid channel ID');
  });
});
