// PATCH /realm for the simple settings (REALM_PROPERTIES), the owner-only ones and the
// organization-level group settings.
import { handler as register } from '../../../functions/events/register';
import { handler as update } from '../../../functions/realm/update';
import { handler as deactivateGroup } from '../../../functions/user-groups/deactivate';
import { hasRealmPermission, RealmGroups } from '../../../lib/access/user-groups';
import * as realmsStore from '../../../lib/store/realms';
import * as usersStore from '../../../lib/store/users';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const patch = (as: string, params: Record<string, unknown>) => call(update, { method: 'PATCH', path: '/realm', as, params });

const realmState = async (as = 'hamlet@zulip.com') =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['realm'] } }));

const stored = async (realmId = 2) => (await realmsStore.get(realmId, { consistent: true }))!;
const systemGroupId = async (name: string) => (await RealmGroups.load(2)).systemGroup(name).id;
const HAMLET_CHARACTERS = 9;

describe('PATCH /realm: simple settings', () => {
  it('lets an owner require invitations: answers the value, tells every user, and register shows it', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expect((await realmState()).realm_invite_required).toBe(true);
    expect(expectSuccess(await patch('desdemona@zulip.com', { invite_required: false }))).toEqual({
      result: 'success',
      msg: '',
      invite_required: false,
    });
    expect(await queue.drain()).toEqual([{ type: 'realm', op: 'update', property: 'invite_required', value: false }]);
    expect((await realmState()).realm_invite_required).toBe(false);
  });

  it.each([
    [{ invite_required: true }],
    [{ emails_restricted_to_domains: true }],
    [{ disallow_disposable_email_addresses: false }],
    [{ name: 'Not this', can_invite_users_group: { new: 11 } }],
    [{ can_create_groups: { new: 11 } }],
    [{ can_manage_all_groups: { new: 11 } }],
    [{ create_multiuse_invite_group: { new: 11 } }],
  ])('refuses an administrator who is not an owner an owner-only setting (%j), and changes nothing', async (params) => {
    const before = await stored();
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await patch('iago@zulip.com', params), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it('lets an administrator change the other settings, one update event each, and register shows them', async () => {
    const queue = await openQueue('cordelia@zulip.com');
    const body = expectSuccess(
      await patch('iago@zulip.com', {
        message_content_allowed_in_email_notifications: false,
        inline_url_embed_preview: true,
        require_unique_names: true,
        video_chat_provider: 0,
        default_code_block_language: 'python',
        welcome_message_custom_text: 'Welcome!',
      }),
    );
    expect(body).toEqual({
      result: 'success',
      msg: '',
      default_code_block_language: 'updated',
      inline_url_embed_preview: true,
      message_content_allowed_in_email_notifications: false,
      require_unique_names: true,
      video_chat_provider: 0,
      welcome_message_custom_text: 'updated',
    });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'default_code_block_language', value: 'python' },
      { type: 'realm', op: 'update', property: 'inline_url_embed_preview', value: true },
      { type: 'realm', op: 'update', property: 'message_content_allowed_in_email_notifications', value: false },
      { type: 'realm', op: 'update', property: 'require_unique_names', value: true },
      { type: 'realm', op: 'update', property: 'video_chat_provider', value: 0 },
      { type: 'realm', op: 'update', property: 'welcome_message_custom_text', value: 'Welcome!' },
    ]);
    expect(await realmState()).toMatchObject({
      realm_message_content_allowed_in_email_notifications: false,
      realm_inline_url_embed_preview: true,
      realm_require_unique_names: true,
      realm_video_chat_provider: 0,
      realm_default_code_block_language: 'python',
      realm_welcome_message_custom_text: 'Welcome!',
    });
  });

  it('lets an owner restrict emails to domains and allow disposable addresses', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('desdemona@zulip.com', { emails_restricted_to_domains: true, disallow_disposable_email_addresses: false }));
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update', property: 'disallow_disposable_email_addresses', value: false },
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: true },
    ]);
    expect(await realmState()).toMatchObject({
      realm_emails_restricted_to_domains: true,
      realm_disallow_disposable_email_addresses: false,
    });
  });

  it.each([
    [{ inline_image_preview: 'maybe' }, 'inline_image_preview is not valid JSON'],
    [{ send_welcome_emails: 1 }, 'send_welcome_emails is not a boolean'],
    [{ video_chat_provider: 5 }, 'Invalid video_chat_provider 5'],
    [{ video_chat_provider: '"jitsi"' }, 'video_chat_provider is not an integer'],
    [{ welcome_message_custom_text: 'x'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
    [{ avatar_changes_disabled: true, video_chat_provider: 7 }, 'Invalid video_chat_provider 7'],
  ])('refuses bad value #%# with upstream’s message, and changes nothing', async (params, msg) => {
    const before = await stored();
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await patch('desdemona@zulip.com', params), msg);
    expect(await stored()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });
});

describe('PATCH /realm: group settings', () => {
  it('sets a group setting to a system group: update_dict event, answer and register carry its id', async () => {
    const admins = await systemGroupId('role:administrators');
    const queue = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(await patch('iago@zulip.com', { can_create_public_channel_group: { new: admins } }));
    expect(body).toEqual({ result: 'success', msg: '', can_create_public_channel_group: admins });
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: admins } },
    ]);
    expect((await realmState()).realm_can_create_public_channel_group).toBe(admins);
  });

  it('sets a group setting to an anonymous group, and a lone subgroup becomes that group', async () => {
    const moderators = await systemGroupId('role:moderators');
    const queue = await openQueue('othello@zulip.com');
    const value = { direct_members: [10], direct_subgroups: [moderators] };
    expect(expectSuccess(await patch('iago@zulip.com', { can_add_custom_emoji_group: { new: value } })).can_add_custom_emoji_group).toEqual(
      value,
    );
    expectSuccess(
      await patch('iago@zulip.com', { can_delete_any_message_group: { new: { direct_members: [], direct_subgroups: [moderators] } } }),
    );
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: value } },
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_delete_any_message_group: moderators } },
    ]);
    expect(await realmState()).toMatchObject({ realm_can_add_custom_emoji_group: value, realm_can_delete_any_message_group: moderators });
  });

  it('lets an owner change an owner-only group setting', async () => {
    const queue = await openQueue('hamlet@zulip.com');
    expectSuccess(await patch('desdemona@zulip.com', { can_invite_users_group: { new: HAMLET_CHARACTERS } }));
    expect(await queue.drain()).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_invite_users_group: HAMLET_CHARACTERS } },
    ]);
    expect((await realmState()).realm_can_invite_users_group).toBe(HAMLET_CHARACTERS);
  });

  it('keeps a group a setting of the organization names from being deactivated, naming the setting', async () => {
    // can_invite_users_group names hamletcharacters since the previous test.
    const result = await call(deactivateGroup, {
      method: 'POST',
      path: `/user_groups/${HAMLET_CHARACTERS}/deactivate`,
      routeKey: 'POST /user_groups/{user_group_id}/deactivate',
      pathParameters: { user_group_id: String(HAMLET_CHARACTERS) },
      as: 'desdemona@zulip.com',
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      objections: expect.arrayContaining([{ type: 'realm', settings: ['can_invite_users_group'] }]),
    });
  });

  it('answers success with no event for the value already set', async () => {
    const admins = await systemGroupId('role:administrators');
    const queue = await openQueue('hamlet@zulip.com');
    expect(expectSuccess(await patch('iago@zulip.com', { can_create_public_channel_group: { new: admins, old: admins } }))).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['an unknown group', async () => ({ can_create_public_channel_group: { new: 99999 } }), 'Invalid user group'],
    [
      'role:everyone where it is not allowed',
      async () => ({ can_create_public_channel_group: { new: await systemGroupId('role:everyone') } }),
      "'can_create_public_channel_group' setting cannot be set to 'role:everyone' group.",
    ],
    [
      'role:internet',
      async () => ({ can_delete_own_message_group: { new: await systemGroupId('role:internet') } }),
      "'can_delete_own_message_group' setting cannot be set to 'role:internet' group.",
    ],
    [
      'role:nobody where it is not allowed',
      async () => ({ can_manage_all_groups: { new: await systemGroupId('role:nobody') } }),
      "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
    ],
    [
      'an empty anonymous group (role:nobody) where it is not allowed',
      async () => ({ can_manage_billing_group: { new: { direct_members: [], direct_subgroups: [] } } }),
      "'can_manage_billing_group' setting cannot be set to 'role:nobody' group.",
    ],
    [
      'a system group outside the allowed ones',
      async () => ({ can_create_web_public_channel_group: { new: await systemGroupId('role:members') } }),
      "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.",
    ],
    [
      'a user group where only system groups are allowed',
      async () => ({ can_create_web_public_channel_group: { new: HAMLET_CHARACTERS } }),
      "'can_create_web_public_channel_group' must be a system user group.",
    ],
    [
      'an anonymous group where only system groups are allowed',
      async () => ({ can_access_all_users_group: { new: { direct_members: [10], direct_subgroups: [] } } }),
      "'can_access_all_users_group' must be a system user group.",
    ],
    [
      'an anonymous group with an unknown user',
      async () => ({ can_create_bots_group: { new: { direct_members: [424242], direct_subgroups: [] } } }),
      'Invalid user ID: 424242',
    ],
    [
      'an anonymous group with an unknown subgroup',
      async () => ({ can_create_bots_group: { new: { direct_members: [10], direct_subgroups: [424242] } } }),
      'Invalid user group ID: 424242',
    ],
    ['a malformed value', async () => ({ can_create_bots_group: { new: 'admins' } }), 'can_create_bots_group["new"] is not an integer'],
    [
      'a valid setting alongside an invalid one',
      async () => ({
        send_welcome_emails: false,
        can_create_bots_group: { new: await systemGroupId('role:administrators') },
        can_create_groups: { new: await systemGroupId('role:everyone') },
      }),
      "'can_create_groups' setting cannot be set to 'role:everyone' group.",
    ],
  ])('refuses %s with upstream’s message, and changes nothing', async (_what, params, msg) => {
    const request = await params();
    const before = await stored();
    const queue = await openQueue('hamlet@zulip.com');
    expectError(await patch('desdemona@zulip.com', request), msg);
    expect(await stored()).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it("refuses an 'old' value that is not the current one (EXPECTATION_MISMATCH), and changes nothing", async () => {
    const before = await stored();
    const request = {
      can_create_public_channel_group: { new: await systemGroupId('role:members'), old: await systemGroupId('role:owners') },
    };
    expectError(await patch('iago@zulip.com', request), "'old' value does not match the expected value.", 400, 'EXPECTATION_MISMATCH');
    expect(await stored()).toEqual(before);
  });

  it('keeps guests out of a setting that does not allow role:everyone, even through an anonymous group', async () => {
    // Upstream's user_has_permission_for_group_setting: guests never hold such a permission.
    const both = { direct_members: [10, 13], direct_subgroups: [] };
    expectSuccess(await patch('iago@zulip.com', { can_add_custom_emoji_group: { new: both }, can_resolve_topics_group: { new: both } }));
    const [realm, groups] = [await stored(), await RealmGroups.load(2)];
    const [hamlet, polonius] = [(await usersStore.get(2, 10))!, (await usersStore.get(2, 13))!];
    expect(hasRealmPermission(realm, groups, hamlet, 'can_add_custom_emoji_group')).toBe(true);
    expect(hasRealmPermission(realm, groups, polonius, 'can_add_custom_emoji_group')).toBe(false);
    expect(hasRealmPermission(realm, groups, polonius, 'can_resolve_topics_group')).toBe(true);
  });
});
