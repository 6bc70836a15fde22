// Email invitations: POST /invites, GET /invites, DELETE /invites/{id}, POST /invites/{id}/resend.
// The invitation emails go through the local SES store, and each test reads them back from it.
import { handler as create } from '../../../functions/invites/create';
import { handler as list } from '../../../functions/invites/list';
import { handler as resend } from '../../../functions/invites/resend';
import { handler as revoke } from '../../../functions/invites/revoke';
import { advanceClock } from '../../../lib/clock';
import { listLocalSentEmails } from '../../../lib/store/emails';
import * as invitesStore from '../../../lib/store/invites';
import * as realmsStore from '../../../lib/store/realms';
import { call, expectError, expectSuccess, type ApiResult } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

// Addresses of this file only: the local SES store is shared by every test file of the run.
const DOMAIN = 'invitees.example.com';
let counter = 0;
const fresh = (name = 'new') => `${name}${++counter}@${DOMAIN}`;

const post = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/invites', as, params });
const invite = (as: string, emails: string, params: Record<string, unknown> = {}) =>
  post(as, { invitee_emails: emails, stream_ids: [], ...params });
const get = (as: string) => call(list, { method: 'GET', path: '/invites', as });
const del = (as: string, id: number | string) =>
  call(revoke, {
    method: 'DELETE',
    path: `/invites/${id}`,
    routeKey: 'DELETE /invites/{invite_id}',
    pathParameters: { invite_id: String(id) },
    as,
  });
const resendTo = (as: string, id: number | string) =>
  call(resend, {
    method: 'POST',
    path: `/invites/${id}/resend`,
    routeKey: 'POST /invites/{invite_id}/resend',
    pathParameters: { invite_id: String(id) },
    as,
  });

const stored = () => invitesStore.listEmailInvitesOfRealm(2);
const storedFor = async (email: string) => (await stored()).filter((i) => i.email === email);
const emailsTo = async (address: string) => ((await listLocalSentEmails()) ?? []).filter((e) => e.to.includes(address));

const expectInvitationFailed = (result: ApiResult, msg: string, errors: unknown[], sent: boolean, daily = false) => {
  expect(result.status).toBe(400);
  expect(result.body).toEqual({
    result: 'error',
    msg,
    code: 'INVITATION_FAILED',
    errors,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: daily,
  });
};

describe('POST /invites', () => {
  it('stores the invitation and emails the join link at the organization URL', async () => {
    const address = fresh('alice');
    expectSuccess(await invite('iago@zulip.com', address, { stream_ids: [1, 3], invite_as: 300 }));
    const [row] = await storedFor(address);
    expect(row).toMatchObject({
      realmId: 2,
      email: address,
      referredBy: 11,
      invitedAs: 300,
      streamIds: [1, 3],
      groupIds: [],
      includeRealmDefaultSubscriptions: false,
      notifyReferrerOnJoin: true,
    });
    expect(row.expiryDate! - row.dateCreated).toBe(10 * 24 * 60 * 60);
    const [email] = await emailsTo(address);
    expect(email.subject).toBe('Iago has invited you to join Zulip Dev');
    const link = `http://localhost:3000/join/${row.confirmationKey}/`;
    expect(email.text).toContain(`Iago (iago@zulip.com) wants you to join them on Zulip`);
    expect(email.text).toContain(`<${link}>`);
    expect(email.html).toContain(`href="${link}"`);
  });

  it('stores the link key so that a lookup by it finds the invitation', async () => {
    const address = fresh();
    expectSuccess(await invite('hamlet@zulip.com', address));
    const [row] = await storedFor(address);
    expect(await invitesStore.getInviteByConfirmationKey(row.confirmationKey)).toEqual({ kind: 'email', invite: row });
    expect(await invitesStore.getInviteByConfirmationKey('nosuchkey0000000000000000')).toBeUndefined();
  });

  it('invites each address of a list split at commas and newlines, with names, once each', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()];
    expectSuccess(await invite('iago@zulip.com', `Alice Example <${a}>, ${b}\n ${c} ,${b}`));
    for (const address of [a, b, c]) {
      expect(await storedFor(address)).toHaveLength(1);
      expect(await emailsTo(address)).toHaveLength(1);
    }
  });

  it('keeps the options it was given: groups, default channels, no notice, no expiry', async () => {
    const address = fresh();
    expectSuccess(
      await invite('iago@zulip.com', address, {
        group_ids: [],
        include_realm_default_subscriptions: true,
        notify_referrer_on_join: false,
        invite_expires_in_minutes: null,
      }),
    );
    expect((await storedFor(address))[0]).toMatchObject({
      includeRealmDefaultSubscriptions: true,
      notifyReferrerOnJoin: false,
      expiryDate: null,
    });
  });

  it('invites an address that already has a pending invitation again, as upstream', async () => {
    const address = fresh();
    expectSuccess(await invite('iago@zulip.com', address));
    expectSuccess(await invite('hamlet@zulip.com', address));
    const rows = await storedFor(address);
    expect(rows.map((r) => r.referredBy)).toEqual([11, 10]);
    expect(new Set(rows.map((r) => r.confirmationKey)).size).toBe(2);
    expect(await emailsTo(address)).toHaveLength(2);
  });

  it('skips addresses that already have an account and invites the others, reporting the skipped ones', async () => {
    const address = fresh();
    expectInvitationFailed(
      await invite('iago@zulip.com', `hamlet@zulip.com, ${address}, former@zulip.com`),
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      [
        ['hamlet@zulip.com', 'Already has an account.', false],
        ['former@zulip.com', 'Account has been deactivated.', true],
      ],
      true,
    );
    expect(await storedFor(address)).toHaveLength(1);
    expect(await emailsTo('hamlet@zulip.com')).toEqual([]);
  });

  it('matches existing accounts ignoring case', async () => {
    expectInvitationFailed(
      await invite('iago@zulip.com', 'HAMLET@zulip.com'),
      "We weren't able to invite anyone.",
      [['HAMLET@zulip.com', 'Already has an account.', false]],
      false,
    );
  });

  it("sends nothing when every address is taken, a system bot's included", async () => {
    const before = (await stored()).length;
    expectInvitationFailed(
      await invite('iago@zulip.com', 'othello@zulip.com,notification-bot@zulip.com'),
      "We weren't able to invite anyone.",
      [
        ['othello@zulip.com', 'Already has an account.', false],
        ['notification-bot@zulip.com', 'Reserved for system bots.', false],
      ],
      false,
    );
    expect((await stored()).length).toBe(before);
  });

  it('sends nothing when an address is invalid, listing it with the taken ones', async () => {
    const address = fresh();
    const before = (await stored()).length;
    expectInvitationFailed(
      await invite('iago@zulip.com', `not-an-address, ${address}, hamlet@zulip.com`),
      "Some emails did not validate, so we didn't send any invitations.",
      [
        ['not-an-address', 'Invalid address.', false],
        ['hamlet@zulip.com', 'Already has an account.', false],
      ],
      false,
    );
    expect((await stored()).length).toBe(before);
    expect(await emailsTo(address)).toEqual([]);
  });

  it('refuses a huge address as invalid, sending nothing', async () => {
    const huge = `${'a'.repeat(100_000)}@${DOMAIN}`;
    const result = await invite('iago@zulip.com', huge);
    expect(result.body).toMatchObject({
      code: 'INVITATION_FAILED',
      msg: "Some emails did not validate, so we didn't send any invitations.",
    });
  });

  it('sends invites_changed to the administrators and the inviter, not to other members', async () => {
    const [iago, hamlet, othello] = await Promise.all([
      openQueue('iago@zulip.com'),
      openQueue('hamlet@zulip.com'),
      openQueue('othello@zulip.com'),
    ]);
    expectSuccess(await invite('hamlet@zulip.com', fresh()));
    expect(await iago.drain()).toEqual([{ type: 'invites_changed' }]);
    expect(await hamlet.drain()).toEqual([{ type: 'invites_changed' }]);
    expect(await othello.drain()).toEqual([]);
  });

  it.each<[string, string, Record<string, unknown>, string, string?]>([
    ['no invitee_emails', 'iago@zulip.com', { invitee_emails: undefined }, "Missing 'invitee_emails' argument", 'REQUEST_VARIABLE_MISSING'],
    ['no stream_ids', 'iago@zulip.com', { stream_ids: undefined }, "Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING'],
    ['empty invitee_emails', 'iago@zulip.com', { invitee_emails: '' }, 'You must specify at least one email address.'],
    ['an unknown role', 'iago@zulip.com', { invite_as: 500 }, 'Invalid invite_as'],
    ['stream_ids that are no JSON', 'iago@zulip.com', { stream_ids: '[1' }, 'stream_ids is not valid JSON'],
    ['a moderator invitation from a member', 'hamlet@zulip.com', { invite_as: 300 }, 'Must be an organization administrator'],
    [
      'an owner invitation from an administrator',
      'iago@zulip.com',
      { invite_as: 100 },
      'Must be an organization owner',
      'UNAUTHORIZED_PRINCIPAL',
    ],
    ['a missing channel', 'iago@zulip.com', { stream_ids: [999] }, 'Invalid channel ID 999. No invites were sent.'],
    [
      'a channel the member may not add subscribers to',
      'hamlet@zulip.com',
      { stream_ids: [6] },
      'You do not have permission to subscribe other users to channels.',
    ],
    ['a missing group', 'iago@zulip.com', { group_ids: [99999] }, 'Invalid user group'],
    ['a guest', 'polonius@zulip.com', {}, 'Not allowed for guest users'],
    ['a bot', 'default-bot@zulip.com', {}, 'This endpoint does not accept bot requests.'],
    ["another organization's channel", 'king@lear.org', { stream_ids: [1] }, 'Invalid channel ID 1. No invites were sent.'],
  ])('refuses %s, inviting nobody', async (_case, as, params, msg, code = 'BAD_REQUEST') => {
    const address = fresh();
    const before = await Promise.all([stored(), invitesStore.listEmailInvitesOfRealm(3)]);
    const all = { invitee_emails: address, stream_ids: [], ...params };
    const sent = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
    expectError(await post(as, sent), msg, 400, code);
    expect(await Promise.all([stored(), invitesStore.listEmailInvitesOfRealm(3)])).toEqual(before);
    expect(await emailsTo(address)).toEqual([]);
  });

  it('refuses a member when the organization lets only administrators invite, inviting nobody', async () => {
    const realm = (await realmsStore.get(2, { consistent: true }))!;
    await realmsStore.put({ ...realm, groupSettings: { ...realm.groupSettings, can_invite_users_group: 2 } });
    try {
      const address = fresh();
      expectError(await invite('hamlet@zulip.com', address), 'Insufficient permission');
      expect(await storedFor(address)).toEqual([]);
      expect(await emailsTo(address)).toEqual([]);
      expectSuccess(await invite('iago@zulip.com', address));
    } finally {
      await realmsStore.put(realm);
    }
  });

  describe('the daily limit of invitation emails', () => {
    afterEach(() => delete process.env.INVITES_DAILY_MAX);

    it('refuses more invitations than the day allows, sending none', async () => {
      process.env.INVITES_DAILY_MAX = '0';
      const address = fresh();
      const before = (await stored()).length;
      expectInvitationFailed(
        await invite('iago@zulip.com', address),
        'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
        [],
        false,
        true,
      );
      expect((await stored()).length).toBe(before);
      expect(await emailsTo(address)).toEqual([]);
    });

    it('refuses a list of a thousand addresses before looking any up', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => `bulk${i}@${DOMAIN}`).join(',');
      const result = await invite('iago@zulip.com', many);
      expect(result.body).toMatchObject({ code: 'INVITATION_FAILED', daily_limit_reached: true, sent_invitations: false });
      expect(await emailsTo(`bulk0@${DOMAIN}`)).toEqual([]);
    });
  });
});

describe('GET /invites', () => {
  it('lists email invitations before links, as upstream, with their fields', async () => {
    const address = fresh();
    expectSuccess(await invite('hamlet@zulip.com', address, { notify_referrer_on_join: false }));
    const [row] = await storedFor(address);
    const body = expectSuccess(await get('iago@zulip.com'));
    expect(body.invites.find((i: { email?: string }) => i.email === address)).toEqual({
      email: address,
      invited_by_user_id: 10,
      invited: row.dateCreated,
      expiry_date: row.expiryDate,
      id: row.id,
      invited_as: 400,
      is_multiuse: false,
      notify_referrer_on_join: false,
    });
    const kinds = body.invites.map((i: { is_multiuse: boolean }) => i.is_multiuse);
    expect(kinds.indexOf(true)).toBeGreaterThan(kinds.lastIndexOf(false));
  });

  it('shows a member only their own email invitations', async () => {
    const body = expectSuccess(await get('hamlet@zulip.com'));
    const email = body.invites.filter((i: { is_multiuse: boolean }) => !i.is_multiuse);
    expect(email.length).toBeGreaterThan(0);
    expect(email.every((i: { invited_by_user_id: number }) => i.invited_by_user_id === 10)).toBe(true);
    expect(expectSuccess(await get('othello@zulip.com')).invites.filter((i: { is_multiuse: boolean }) => !i.is_multiuse)).toEqual([]);
  });

  it('leaves expired email invitations out', async () => {
    const address = fresh();
    expectSuccess(await invite('iago@zulip.com', address, { invite_expires_in_minutes: 1 }));
    advanceClock(2 * 60 * 1000);
    expect(expectSuccess(await get('iago@zulip.com')).invites.map((i: { email?: string }) => i.email)).not.toContain(address);
  });
});

describe('DELETE /invites/{invite_id}', () => {
  it('lets the inviter revoke their invitation: the row and its link are gone, and invites_changed goes out', async () => {
    const address = fresh();
    expectSuccess(await invite('hamlet@zulip.com', address));
    const [row] = await storedFor(address);
    const iago = await openQueue('iago@zulip.com');
    expectSuccess(await del('hamlet@zulip.com', row.id));
    expect(await invitesStore.getEmailInvite(2, row.id, { consistent: true })).toBeUndefined();
    expect(await invitesStore.getInviteByConfirmationKey(row.confirmationKey)).toBeUndefined();
    expect(await iago.drain()).toEqual([{ type: 'invites_changed' }]);
    expectError(await del('hamlet@zulip.com', row.id), 'No such invitation');
  });

  it("refuses a member someone else's invitation, and an administrator an owner's, keeping it", async () => {
    const [member, owner] = [fresh(), fresh()];
    expectSuccess(await invite('iago@zulip.com', member));
    expectSuccess(await invite('desdemona@zulip.com', owner, { invite_as: 100 }));
    const [m] = await storedFor(member);
    const [o] = await storedFor(owner);
    expectError(await del('hamlet@zulip.com', m.id), 'Must be an organization administrator');
    expectError(await del('iago@zulip.com', o.id), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await storedFor(member)).toHaveLength(1);
    expect(await storedFor(owner)).toHaveLength(1);
    expectSuccess(await del('iago@zulip.com', m.id));
    expectSuccess(await del('desdemona@zulip.com', o.id));
  });

  it('answers "No such invitation" for an id of another organization, or none at all', async () => {
    const address = fresh();
    expectSuccess(await invite('iago@zulip.com', address));
    const [row] = await storedFor(address);
    expectError(await del('king@lear.org', row.id), 'No such invitation');
    expectError(await del('iago@zulip.com', 999999), 'No such invitation');
    expect(await storedFor(address)).toHaveLength(1);
  });

  it('refuses guests and bots', async () => {
    expectError(await del('polonius@zulip.com', 1), 'Not allowed for guest users');
    expectError(await del('default-bot@zulip.com', 1), 'This endpoint does not accept bot requests.');
  });
});

describe('POST /invites/{invite_id}/resend', () => {
  it('sends the same link again', async () => {
    const address = fresh();
    expectSuccess(await invite('hamlet@zulip.com', address));
    const [row] = await storedFor(address);
    expectSuccess(await resendTo('iago@zulip.com', row.id));
    const sent = await emailsTo(address);
    expect(sent).toHaveLength(2);
    expect(sent[0].text).toBe(sent[1].text);
    expect(sent[0].text).toContain(`/join/${row.confirmationKey}/`);
  });

  it("refuses a member someone else's invitation and an unknown id, sending nothing", async () => {
    const address = fresh();
    expectSuccess(await invite('iago@zulip.com', address));
    const [row] = await storedFor(address);
    expectError(await resendTo('hamlet@zulip.com', row.id), 'Must be an organization administrator');
    expectError(await resendTo('king@lear.org', row.id), 'No such invitation');
    expectError(await resendTo('iago@zulip.com', 999999), 'No such invitation');
    expect(await emailsTo(address)).toHaveLength(1);
  });

  it('refuses past the daily limit, sending nothing', async () => {
    const address = fresh();
    expectSuccess(await invite('iago@zulip.com', address));
    const [row] = await storedFor(address);
    process.env.INVITES_DAILY_MAX = '0';
    try {
      expect((await resendTo('iago@zulip.com', row.id)).body).toMatchObject({ code: 'INVITATION_FAILED', daily_limit_reached: true });
    } finally {
      delete process.env.INVITES_DAILY_MAX;
    }
    expect(await emailsTo(address)).toHaveLength(1);
  });
});
