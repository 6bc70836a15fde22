// POST /users and the create-user action behind it (lib/actions/people/create.ts), against the
// development data ('zulip': iago 11 an administrator, desdemona 9 the owner, hamlet 10 a member;
// Verona 3 has every member subscribed, Scotland 2 is public).
import { handler as createUser } from '../../../functions/users/create';
import { handler as me } from '../../../functions/users/me';
import { handler as listMessages } from '../../../functions/messages/list';
import { doCreateUser, welcomeMessageContent } from '../../../lib/actions/people/create';
import { Role } from '../../../lib/models/user';
import { verifyPassword } from '../../../lib/passwords';
import * as channelsStore from '../../../lib/store/channels';
import * as defaultChannelsStore from '../../../lib/store/default-channels';
import * as passwordsStore from '../../../lib/store/passwords';
import * as realmsStore from '../../../lib/store/realms';
import * as groupsStore from '../../../lib/store/user-groups';
import * as usersStore from '../../../lib/store/users';
import { basicAuth, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const post = (as: string, params: Record<string, unknown>) => call(createUser, { method: 'POST', path: '/users', as, params });
const VALID = { email: 'newbie@zulip.com', password: 'a-long-passphrase', full_name: 'New Person' };
const usersWith = async (email: string) => (await usersStore.listByEmail(email)).filter((u) => u.realmId === 2);

const allowIago = () => usersStore.update(2, 11, { canCreateUsers: true });

describe('POST /users', () => {
  it('refuses a member with "Must be an organization administrator" and creates nobody', async () => {
    expectError(await post('hamlet@zulip.com', VALID), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await usersWith(VALID.email)).toEqual([]);
  });

  it('refuses an administrator without can_create_users with "User not authorized to create users"', async () => {
    expectError(await post('iago@zulip.com', VALID), 'User not authorized to create users');
    expect(await usersWith(VALID.email)).toEqual([]);
  });

  it.each([
    ['Name too short!', { full_name: ' x ' }],
    ['Name too long!', { full_name: 'n'.repeat(101) }],
    ['Invalid characters in name!', { full_name: 'Evil *Bold*' }],
    ['Invalid format!', { full_name: 'Hamlet|10' }],
    ['Bad name or username', { email: 'not-an-email' }],
    ['Bad name or username', { email: `${'x'.repeat(250)}@zulip.com` }],
    ['Bad name or username', { email: `${'😀'.repeat(250)}@zulip.com` }],
    ['Email is already in use.', { email: 'HAMLET@zulip.com' }],
    ['The password is too weak.', { password: 'abc' }],
  ])('answers "%s" and creates nobody', async (msg, change) => {
    await allowIago();
    const params = { ...VALID, ...change };
    expectError(await post('iago@zulip.com', params), msg);
    expect(await usersWith(VALID.email)).toEqual([]);
    expect((await usersWith('hamlet@zulip.com')).length).toBe(1);
  });

  it('creates a member who signs in with the password and the new API key, with events to the organization', async () => {
    await allowIago();
    await defaultChannelsStore.addDefaultChannel(2, 2);
    const hamlet = await openQueue('hamlet@zulip.com');
    const body = expectSuccess(await post('iago@zulip.com', VALID));
    const [user] = await usersWith(VALID.email);
    expect(body.user_id).toBe(user.id);
    expect(user).toMatchObject({ fullName: 'New Person', role: Role.MEMBER, isActive: true, isBot: false });
    expect(await verifyPassword(VALID.password, await passwordsStore.getPasswordHash(user.id))).toBe(true);
    const own = expectSuccess(await call(me, { method: 'GET', path: '/users/me', authorization: basicAuth(user.email, user.apiKey) }));
    expect(own.user_id).toBe(user.id);

    const events = await hamlet.drain();
    expect(events[0]).toMatchObject({
      type: 'realm_user',
      op: 'add',
      person: { user_id: user.id, email: VALID.email, full_name: 'New Person', role: 400, is_active: true },
    });
    const groups = await groupsStore.listGroupsOfRealm(2);
    const idOf = (name: string) => groups.find((g) => g.name === name)!.id;
    expect(events.filter((e) => e.type === 'user_group')).toEqual([
      { type: 'user_group', op: 'add_members', group_id: idOf('role:members'), user_ids: [user.id] },
      { type: 'user_group', op: 'add_members', group_id: idOf('role:fullmembers'), user_ids: [user.id] },
    ]);
    // Scotland is the default channel; hamlet is not subscribed but may see its subscribers.
    expect(events).toContainEqual({ type: 'subscription', op: 'peer_add', stream_ids: [2], user_ids: [user.id] });
    expect(groups.find((g) => g.name === 'role:members')!.members).toContain(user.id);
    expect((await channelsStore.getSubscription(user.id, 2))?.active).toBe(true);
    expect(await channelsStore.listSubscriberIdsOfChannel(2)).toContain(user.id);
  });

  it('answers "Email is already in use." for the email just created, in any case', async () => {
    await allowIago();
    expectError(await post('iago@zulip.com', { ...VALID, email: 'NewBie@Zulip.com' }), 'Email is already in use.');
    expect((await usersWith(VALID.email)).length).toBe(1);
  });

  it('creates exactly one account when the same email is created concurrently', async () => {
    await allowIago();
    const email = 'racer@zulip.com';
    const results = await Promise.all(Array.from({ length: 4 }, () => post('iago@zulip.com', { ...VALID, email })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 'Email is already in use.');
    expect(await usersWith(email)).toHaveLength(1);
  });
});

describe('doCreateUser', () => {
  it('refuses an email taken by a concurrent creation that passed the same checks (the lock decides)', async () => {
    const realm = (await realmsStore.get(2))!;
    const request = { email: 'lock@zulip.com', fullName: 'Lock Test', role: Role.MEMBER };
    const outcomes = await Promise.allSettled([doCreateUser(realm, request), doCreateUser(realm, request), doCreateUser(realm, request)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected'))
      expect((o.reason as Error).message).toBe('Email is already in use.');
    expect(await usersWith('lock@zulip.com')).toHaveLength(1);
  });

  it('posts "@_**name|id** joined this organization." in the signup announcements channel when there is one', async () => {
    const realm = { ...(await realmsStore.get(2))!, signupAnnouncementsStreamId: 3 };
    await realmsStore.put(realm);
    const hamlet = await openQueue('hamlet@zulip.com');
    const user = await doCreateUser(realm, { email: 'announced@zulip.com', fullName: 'Announced Person', role: Role.MEMBER });
    const messages = (await hamlet.drain()).filter((e) => e.type === 'message');
    expect(messages).toHaveLength(1);
    expect(messages[0].message).toMatchObject({
      sender_email: 'notification-bot@zulip.com',
      stream_id: 3,
      subject: 'signups',
    });
    expect(messages[0].message.content).toBe(`@_**Announced Person|${user.id}** joined this organization.`);
  });

  it("sends an administrator Welcome Bot's welcome direct message with the organization setup guide, and a bot none", async () => {
    const realm = (await realmsStore.get(2))!;
    const admin = await doCreateUser(realm, { email: 'welcomed-admin@zulip.com', fullName: 'Welcomed Admin', role: Role.ADMINISTRATOR });
    await doCreateUser(realm, {
      email: 'unwelcomed-bot@zulip.com',
      fullName: 'Some Bot',
      role: Role.MEMBER,
      bot: { botType: 1, ownerId: admin.id },
    });
    const dmsOf = async (email: string) =>
      expectSuccess(
        await call(listMessages, {
          method: 'GET',
          path: '/messages',
          as: email,
          params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }], apply_markdown: false },
        }),
      ).messages as { sender_email: string; content: string }[];
    expect(await dmsOf('unwelcomed-bot@zulip.com')).toEqual([]);
    const [welcome] = await dmsOf('welcomed-admin@zulip.com');
    expect(welcome.sender_email).toBe('welcome-bot@zulip.com');
    expect(welcome.content).toBe(welcomeMessageContent(realm, admin));
    const content = welcomeMessageContent(realm, admin);
    expect(content).toBe(
      'Hello, and welcome to Zulip!👋\n\nTo learn more, check out our [getting started guide](/help/getting-started-with-zulip)! We also have a guide for [moving your organization to Zulip](/help/moving-to-zulip).',
    );
    expect(welcomeMessageContent({ ...realm, id: 100 }, { ...admin, role: Role.MEMBER })).toBe(
      "Hello, and welcome to Zulip!👋 I've kicked off some conversations to help you get started. You can find them in your [Inbox](/#inbox).\n\nTo learn more, check out our [getting started guide](/help/getting-started-with-zulip)!",
    );
  });

  it('makes a guest a member of role:everyone only, and joins the given channels and groups', async () => {
    const realm = (await realmsStore.get(2))!;
    const user = await doCreateUser(realm, {
      email: 'guest2@zulip.com',
      fullName: 'Second Guest',
      role: Role.GUEST,
      channelIds: [6],
      groupIds: [14],
      includeDefaultChannels: false,
    });
    const groups = await groupsStore.listGroupsOfRealm(2, { consistent: true });
    const memberOf = groups.filter((g) => g.members.includes(user.id)).map((g) => g.name);
    expect(memberOf.sort()).toEqual(['role:everyone', groups.find((g) => g.id === 14)!.name].sort());
    const subs = await channelsStore.listSubscriptionsOfUser(user.id);
    expect(subs.map((s) => s.channelId)).toEqual([6]);
  });

  it('joins a bot to its role group only: no channels, no notices', async () => {
    const realm = (await realmsStore.get(2))!;
    const bot = await doCreateUser(realm, {
      email: 'helper-bot@zulip.com',
      fullName: 'Helper',
      role: Role.MEMBER,
      bot: { botType: 1, ownerId: 10 },
    });
    expect(bot).toMatchObject({ isBot: true, botType: 1, botOwnerId: 10 });
    expect(await channelsStore.listSubscriptionsOfUser(bot.id)).toEqual([]);
  });
});
