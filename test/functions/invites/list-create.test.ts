import { handler as list } from '../../../functions/invites/list';
import { handler as create } from '../../../functions/invites/create-multiuse';
import * as invitesStore from '../../../lib/store/invites';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const get = (as: string) => call(list, { method: 'GET', path: '/invites', as });
const post = (as: string, params: Record<string, unknown> = {}) => call(create, { method: 'POST', path: '/invites/multiuse', as, params });
const count = async () => (await invitesStore.listInvitesOfRealm(2)).length;

describe('GET /invites', () => {
  it('lists every active link of the organization to an administrator', async () => {
    const body = expectSuccess(await get('iago@zulip.com'));
    expect(body.invites.map((i: { id: number }) => i.id)).toEqual([1, 3, 4]);
    const key = (await invitesStore.getInvite(2, 1))!.confirmationKey;
    expect(body.invites[0]).toEqual({
      invited_by_user_id: 11,
      invited: 1700005000,
      expiry_date: null,
      id: 1,
      link_url: `http://localhost:3000/join/${key}/`,
      invited_as: 400,
      is_multiuse: true,
    });
  });

  it("lists only a member's own links", async () => {
    expect(expectSuccess(await get('hamlet@zulip.com')).invites.map((i: { id: number }) => i.id)).toEqual([4]);
  });

  it("lists king@lear.org only his organization's links", async () => {
    expect(expectSuccess(await get('king@lear.org')).invites.map((i: { id: number }) => i.id)).toEqual([5]);
  });

  it('refuses guests and bots', async () => {
    expectError(await get('polonius@zulip.com'), 'Not allowed for guest users');
    expectError(await get('default-bot@zulip.com'), 'This endpoint does not accept bot requests.');
  });
});

describe('POST /invites/multiuse', () => {
  it('creates a member link valid for ten days by default and returns it', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { stream_ids: [3, 1] }));
    expect(body.invite_link).toMatch(/^http:\/\/localhost:3000\/join\/[a-z0-9]{24}\/$/);
    const key = body.invite_link.split('/')[4];
    const invite = (await invitesStore.listInvitesOfRealm(2)).find((i) => i.confirmationKey === key)!;
    expect(invite).toMatchObject({ referredBy: 11, invitedAs: 400, streamIds: [3, 1], status: 'active' });
    expect(invite.expiryDate! - invite.dateCreated).toBe(10 * 24 * 60 * 60);
    expect(expectSuccess(await get('iago@zulip.com')).invites.map((i: { id: number }) => i.id)).toContain(invite.id);
  });

  it('creates a link that never expires with invite_expires_in_minutes null', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { invite_expires_in_minutes: null }));
    const invite = (await invitesStore.listInvitesOfRealm(2)).find((i) => body.invite_link.includes(i.confirmationKey))!;
    expect(invite.expiryDate).toBeNull();
  });

  it('leaves expired links out of GET /invites', async () => {
    const body = expectSuccess(await post('iago@zulip.com', { invite_expires_in_minutes: 1 }));
    const invite = (await invitesStore.listInvitesOfRealm(2)).find((i) => body.invite_link.includes(i.confirmationKey))!;
    const { advanceClock } = await import('../../../lib/clock');
    advanceClock(2 * 60 * 1000);
    expect(expectSuccess(await get('iago@zulip.com')).invites.map((i: { id: number }) => i.id)).not.toContain(invite.id);
  });

  it('refuses a member, as the organization lets only administrators create links', async () => {
    const before = await count();
    expectError(await post('hamlet@zulip.com'), 'Insufficient permission');
    expect(await count()).toBe(before);
  });

  it('refuses an owner link to an administrator who is not an owner', async () => {
    expectError(await post('iago@zulip.com', { invite_as: 100 }), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expectSuccess(await post('desdemona@zulip.com', { invite_as: 100 }));
  });

  it.each([
    [{ invite_as: 500 }, 'Invalid invite_as'],
    [{ stream_ids: [10] }, 'Invalid channel ID 10. No invites were sent.'],
    [{ stream_ids: [7] }, 'Invalid channel ID 7. No invites were sent.'],
    [{ stream_ids: [999] }, 'Invalid channel ID 999. No invites were sent.'],
    [{ invite_expires_in_minutes: 'soon' }, 'invite_expires_in_minutes is not valid JSON'],
  ])('refuses %j', async (params, msg) => {
    const before = await count();
    expectError(await post('iago@zulip.com', params), msg);
    expect(await count()).toBe(before);
  });

  it('refuses guests and bots', async () => {
    expectError(await post('polonius@zulip.com'), 'Not allowed for guest users');
    expectError(await post('default-bot@zulip.com'), 'This endpoint does not accept bot requests.');
  });

  it('sends invites_changed to the administrators', async () => {
    const [desdemona, hamlet] = await Promise.all([openQueue('desdemona@zulip.com'), openQueue('hamlet@zulip.com')]);
    expectSuccess(await post('iago@zulip.com'));
    expect(await desdemona.drain()).toEqual([{ type: 'invites_changed' }]);
    expect(await hamlet.drain()).toEqual([]);
  });
});
