import { handler as revoke } from '../../../functions/invites/revoke-multiuse';
import * as invitesStore from '../../../lib/store/invites';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const del = (as: string, inviteId: number | string) =>
  call(revoke, {
    method: 'DELETE',
    path: `/invites/multiuse/${inviteId}`,
    routeKey: 'DELETE /invites/multiuse/{invite_id}',
    pathParameters: { invite_id: String(inviteId) },
    as,
  });

const statusOf = async (inviteId: number, realmId = 2) => (await invitesStore.getInvite(realmId, inviteId, { consistent: true }))?.status;

describe('DELETE /invites/multiuse/{invite_id}', () => {
  it('lets an administrator revoke a member invitation, keeping the row as revoked', async () => {
    expectSuccess(await del('iago@zulip.com', 1));
    const stored = await invitesStore.getInvite(2, 1, { consistent: true });
    expect(stored).toMatchObject({ id: 1, status: 'revoked', referredBy: 11, invitedAs: 400 });
  });

  it('answers "Invitation has already been revoked" for a second revocation', async () => {
    expectError(await del('iago@zulip.com', 1), 'Invitation has already been revoked');
    expect(await statusOf(1)).toBe('revoked');
  });

  it('answers "Invitation has already been revoked" for the seeded revoked invitation', async () => {
    expectError(await del('desdemona@zulip.com', 2), 'Invitation has already been revoked');
  });

  it('refuses an administrator who is not an owner an owner invitation with "Must be an organization owner"', async () => {
    expectError(await del('iago@zulip.com', 3), 'Must be an organization owner', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await statusOf(3)).toBe('active');
  });

  it('lets an owner revoke an owner invitation', async () => {
    expectSuccess(await del('desdemona@zulip.com', 3));
    expect(await statusOf(3)).toBe('revoked');
  });

  it('refuses a member someone else\'s invitation with "Must be an organization administrator"', async () => {
    expectError(await del('hamlet@zulip.com', 1), 'Must be an organization administrator');
  });

  it('checks permission before the revoked state, as upstream', async () => {
    expectError(await del('hamlet@zulip.com', 2), 'Must be an organization administrator');
  });

  it('lets a member revoke their own invitation', async () => {
    expectSuccess(await del('hamlet@zulip.com', 4));
    expect(await statusOf(4)).toBe('revoked');
  });

  it('refuses a guest with "Not allowed for guest users"', async () => {
    expectError(await del('polonius@zulip.com', 1), 'Not allowed for guest users');
  });

  it('refuses a bot with "This endpoint does not accept bot requests."', async () => {
    expectError(await del('default-bot@zulip.com', 1), 'This endpoint does not accept bot requests.');
  });

  it('answers "No such invitation" for an unknown id', async () => {
    expectError(await del('iago@zulip.com', 999999), 'No such invitation');
  });

  it('answers "No such invitation" for the other organization\'s invitation and leaves it active', async () => {
    expectError(await del('iago@zulip.com', 5), 'No such invitation');
    expect(await statusOf(5, 3)).toBe('active');
  });

  it('answers "No such invitation" to king@lear.org for every invitation of the first organization', async () => {
    for (const id of [1, 2, 3, 4]) expectError(await del('king@lear.org', id), 'No such invitation');
  });
});

describe('DELETE /invites/multiuse/{invite_id} with fresh invitations', () => {
  it('gives one success and one "Invitation has already been revoked" to two concurrent revocations', async () => {
    const { handler: create } = await import('../../../functions/invites/create-multiuse');
    const created = expectSuccess(await call(create, { method: 'POST', path: '/invites/multiuse', as: 'iago@zulip.com', params: {} }));
    const invites = await invitesStore.listInvitesOfRealm(2);
    const key = String(created.invite_link).split('/join/')[1].replace('/', '');
    const invite = invites.find((i) => i.confirmationKey === key)!;
    const results = await Promise.all([del('iago@zulip.com', invite.id), del('desdemona@zulip.com', invite.id)]);
    const statuses = results.map((r) => r.body.result).sort();
    expect(statuses).toEqual(['error', 'success']);
    expectError(
      results.find((r) => r.body.result === 'error')!,
      'Invitation has already been revoked',
    );
    expect(await statusOf(invite.id)).toBe('revoked');
  });

  it('sends invites_changed to the administrators and the creator only', async () => {
    const { handler: create } = await import('../../../functions/invites/create-multiuse');
    const created = expectSuccess(await call(create, { method: 'POST', path: '/invites/multiuse', as: 'iago@zulip.com', params: {} }));
    const key = String(created.invite_link).split('/join/')[1].replace('/', '');
    const invite = (await invitesStore.listInvitesOfRealm(2)).find((i) => i.confirmationKey === key)!;
    const queues = await Promise.all(
      ['iago@zulip.com', 'desdemona@zulip.com', 'hamlet@zulip.com', 'shiva@zulip.com'].map((e) => openQueue(e)),
    );
    expectSuccess(await del('desdemona@zulip.com', invite.id));
    const received = await Promise.all(queues.map((q) => q.drain()));
    expect(received).toEqual([[{ type: 'invites_changed' }], [{ type: 'invites_changed' }], [], []]);
  });

  it('sends invites_changed to a member who revokes their own invitation', async () => {
    const hamlet = await openQueue('hamlet@zulip.com');
    const cordelia = await openQueue('cordelia@zulip.com');
    await invitesStore.putInvite({
      id: 424242,
      realmId: 2,
      referredBy: 10,
      invitedAs: 400,
      streamIds: [],
      dateCreated: 1700006000,
      expiryDate: null,
      status: 'active',
      confirmationKey: 'abcdefghijklmnopqrstuvwx',
    });
    expectSuccess(await del('hamlet@zulip.com', 424242));
    expect(await hamlet.drain()).toEqual([{ type: 'invites_changed' }]);
    expect(await cordelia.drain()).toEqual([]);
  });
});
