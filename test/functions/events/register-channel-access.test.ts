// Register's channel lists use the one channel-access module (lib/access/channels.ts): a private
// channel's permission groups give metadata access, as upstream's user_has_metadata_access does.
import { handler as register } from '../../../functions/events/register';
import type { GroupSettingValue } from '../../../lib/models/realm';
import { call, expectSuccess } from '../../helpers/api';
import { changeChannel } from '../../helpers/channels';

const CORDELIA = 8;
const CORE_TEAM = 6;
const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };
const state = async (): Promise<Record<string, any>> =>
  expectSuccess(
    await call(register, {
      method: 'POST',
      path: '/register',
      as: 'cordelia@zulip.com',
      params: { fetch_event_types: ['stream', 'subscription'] },
    }),
  );
const ids = (list: { stream_id: number }[]) => list.map((s) => s.stream_id);

describe('POST /register: a private channel for a member who is not subscribed', () => {
  it('leaves it out of streams and never_subscribed when the member is in none of its groups', async () => {
    await changeChannel(2, CORE_TEAM, { groupSettings: { can_subscribe_group: NOBODY, can_administer_channel_group: NOBODY } });
    const body = await state();
    expect(ids(body.streams)).not.toContain(CORE_TEAM);
    expect(ids(body.never_subscribed)).not.toContain(CORE_TEAM);
  });

  it('lists it in streams and never_subscribed when the member is in its can_subscribe_group', async () => {
    await changeChannel(2, CORE_TEAM, { groupSettings: { can_subscribe_group: { direct_members: [CORDELIA], direct_subgroups: [] } } });
    const body = await state();
    expect(ids(body.streams)).toContain(CORE_TEAM);
    expect(ids(body.never_subscribed)).toContain(CORE_TEAM);
  });

  it('lists it in streams when the member is in its can_administer_channel_group', async () => {
    await changeChannel(2, CORE_TEAM, {
      groupSettings: { can_subscribe_group: NOBODY, can_administer_channel_group: { direct_members: [CORDELIA], direct_subgroups: [] } },
    });
    expect(ids((await state()).streams)).toContain(CORE_TEAM);
  });
});
