// The four organization-object state changes over HTTP through serverless-offline with the
// zulip-js client: group deactivation, invitation revocation, reminder deletion and linkifier
// reordering, each with its upstream error on a second attempt and the events other clients get.
import { pollingQueue, useLocalService, zulipClient } from '../helpers/e2e';

const service = useLocalService();

const client = (email: string) => zulipClient(service, email);

const queue = async (c: Awaited<ReturnType<typeof client>>, eventTypes: string[], capabilities: Record<string, boolean> = {}) =>
  (await pollingQueue(c, { event_types: eventTypes, client_capabilities: JSON.stringify(capabilities) })).poll;

describe('e2e: organization objects with zulip-js', () => {
  it('deactivates a user group, and explains why another one cannot be', async () => {
    const [prospero, iago] = [await client('prospero@zulip.com'), await client('iago@zulip.com')];
    const legacy = await queue(iago, ['user_group']);
    const capable = await queue(iago, ['user_group'], { include_deactivated_groups: true });
    expect(await prospero.callEndpoint('/user_groups/14/deactivate', 'POST', {})).toEqual({ result: 'success', msg: '' });
    expect(await legacy()).toEqual([{ type: 'user_group', op: 'remove', group_id: 14 }]);
    expect(await capable()).toEqual([{ type: 'user_group', op: 'update', group_id: 14, data: { deactivated: true } }]);
    expect(await prospero.callEndpoint('/user_groups/14/deactivate', 'POST', {})).toEqual({
      result: 'error',
      msg: 'User group is deactivated.',
      code: 'BAD_REQUEST',
    });
    expect(await iago.callEndpoint('/user_groups/11/deactivate', 'POST', {})).toEqual({
      result: 'error',
      msg: 'Cannot deactivate user group in use.',
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      objections: [{ type: 'channel', channel_id: 1, settings: ['can_remove_subscribers_group'] }],
    });
    const listed = await iago.callEndpoint('/user_groups', 'GET', {});
    expect(listed.user_groups.map((g: { id: number }) => g.id)).not.toContain(14);
  });

  it('revokes an invitation link once', async () => {
    const [iago, desdemona] = [await client('iago@zulip.com'), await client('desdemona@zulip.com')];
    const admins = await queue(desdemona, ['invites_changed']);
    expect(await iago.callEndpoint('/invites/multiuse/1', 'DELETE', {})).toEqual({ result: 'success', msg: '' });
    expect(await admins()).toEqual([{ type: 'invites_changed' }]);
    expect(await iago.callEndpoint('/invites/multiuse/1', 'DELETE', {})).toEqual({
      result: 'error',
      msg: 'Invitation has already been revoked',
      code: 'BAD_REQUEST',
    });
    expect(await iago.callEndpoint('/invites/multiuse/5', 'DELETE', {})).toEqual({
      result: 'error',
      msg: 'No such invitation',
      code: 'BAD_REQUEST',
    });
  });

  it('deletes a reminder once', async () => {
    const iago = await client('iago@zulip.com');
    const own = await queue(iago, ['reminders']);
    expect(await iago.callEndpoint('/reminders/1', 'DELETE', {})).toEqual({ result: 'success', msg: '' });
    expect(await own()).toEqual([{ type: 'reminders', op: 'remove', reminder_id: 1 }]);
    expect(await iago.callEndpoint('/reminders/1', 'DELETE', {})).toEqual({
      result: 'error',
      msg: 'Reminder does not exist',
      code: 'BAD_REQUEST',
    });
  });

  it('reorders the linkifiers', async () => {
    const [iago, hamlet] = [await client('iago@zulip.com'), await client('hamlet@zulip.com')];
    const capable = await queue(hamlet, ['realm_linkifiers'], { linkifier_url_template: true });
    expect(await iago.callEndpoint('/realm/linkifiers', 'PATCH', { ordered_linkifier_ids: JSON.stringify([3, 1, 2]) })).toEqual({
      result: 'success',
      msg: '',
    });
    const listed = await hamlet.callEndpoint('/realm/linkifiers', 'GET', {});
    expect(listed.linkifiers.map((l: { id: number }) => l.id)).toEqual([3, 1, 2]);
    const [event] = await capable();
    expect((event.realm_linkifiers as { id: number }[]).map((l) => l.id)).toEqual([3, 1, 2]);
    expect(await iago.callEndpoint('/realm/linkifiers', 'PATCH', { ordered_linkifier_ids: JSON.stringify([3, 3, 1, 2]) })).toEqual({
      result: 'error',
      msg: 'The ordered list must not contain duplicated linkifiers',
      code: 'BAD_REQUEST',
    });
    expect(await hamlet.callEndpoint('/realm/linkifiers', 'PATCH', { ordered_linkifier_ids: JSON.stringify([1, 2, 3]) })).toEqual({
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
  });
});
