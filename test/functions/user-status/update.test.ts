import { handler as register } from '../../../functions/events/register';
import { handler as updateStatus } from '../../../functions/user-status/update';
import { listUserStatusesOfRealm } from '../../../lib/store/user-status';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const post = (as: string, params: Record<string, unknown>) => call(updateStatus, { method: 'POST', path: '/users/me/status', as, params });
const userStatusOf = async (as: string) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['user_status'] } }))
    .user_status;

describe('POST /users/me/status', () => {
  it('sets a text and an emoji and tells the whole organization', async () => {
    const mine = await openQueue('hamlet@zulip.com');
    const other = await openQueue('iago@zulip.com');
    expectSuccess(await post('hamlet@zulip.com', { status_text: '  In a meeting ', emoji_name: 'octopus' }));
    const event = {
      type: 'user_status',
      user_id: 10,
      status_text: 'In a meeting',
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    };
    expect(await mine.drain()).toEqual([event]);
    expect(await other.drain()).toEqual([event]);
  });

  it("keeps register's user_status in step: the previous snapshot plus the events", async () => {
    const before = await userStatusOf('iago@zulip.com');
    const queue = await openQueue('iago@zulip.com');
    expectSuccess(await post('cordelia@zulip.com', { status_text: 'Busy' }));
    expectSuccess(await post('cordelia@zulip.com', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }));
    expectSuccess(await post('cordelia@zulip.com', { away: true }));
    const expected = structuredClone(before);
    for (const { type: _type, user_id, ...fields } of (await queue.drain()).filter((e) => e.type === 'user_status')) {
      expected[user_id] = { ...(expected[user_id] ?? {}), ...fields };
    }
    expect(await userStatusOf('iago@zulip.com')).toEqual(expected);
    expect(expected['8']).toEqual({
      status_text: 'Busy',
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
      away: true,
    });
  });

  it('sets away as the inverse of presence_enabled, with its user_settings event', async () => {
    const queue = await openQueue('othello@zulip.com');
    expectSuccess(await post('othello@zulip.com', { away: true }));
    expect(await queue.drain()).toEqual([
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'user_status', user_id: 12, away: true },
    ]);
    expect((await usersStore.get(2, 12))!.presenceEnabled).toBe(false);
  });

  it.each([
    [{ emoji_name: 'smile' }, 'smile', '1f642'],
    [{ emoji_name: 'thumbs_up' }, 'thumbs_up', '1f44d'],
    [{ emoji_name: 'love', emoji_code: '2764', reaction_type: 'unicode_emoji' }, 'love', '2764'],
  ])("sets the emoji by upstream's name or alias: %j", async (params, name, code) => {
    expectSuccess(await post('prospero@zulip.com', params));
    expect((await userStatusOf('prospero@zulip.com'))['14']).toMatchObject({
      emoji_name: name,
      emoji_code: code,
      reaction_type: 'unicode_emoji',
    });
  });

  it('clears the emoji with an empty emoji_name and drops an empty status from register', async () => {
    expectSuccess(await post('ZOE@zulip.com', { emoji_name: 'octopus' }));
    expectSuccess(await post('ZOE@zulip.com', { emoji_name: '' }));
    expect((await userStatusOf('ZOE@zulip.com'))['7']).toBeUndefined();
  });

  it.each([
    [{}, 'Client did not pass any new values.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    [{ emoji_name: 'octopus', emoji_code: 'ffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: '+1', emoji_code: '1f419', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'thumbsup' }, "Emoji 'thumbsup' does not exist"],
    [{ emoji_name: 'slightly_smiling_face', emoji_code: '1f642', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'bogus' }, 'Invalid emoji type.'],
    [{ emoji_name: 'party', emoji_code: '1', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ away: 'yes' }, 'away is not valid JSON'],
  ])('refuses %j with "%s" and changes nothing', async (params, msg) => {
    const queue = await openQueue('desdemona@zulip.com');
    const before = await listUserStatusesOfRealm(2);
    expectError(await post('desdemona@zulip.com', { ...params }), msg);
    expect(await listUserStatusesOfRealm(2)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });
});
