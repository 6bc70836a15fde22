import { handler as removeProfileData } from '../../../functions/profile-data/delete';
import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const HAMLET = 10;
const RESTRICTED = 'You are not allowed to change this field. Contact an administrator to update it.';

const del = (as: string, data: unknown) =>
  call(removeProfileData, { method: 'DELETE', path: '/users/me/profile_data', as, params: data === undefined ? {} : { data } });
const storedFieldIds = async (userId: number) =>
  (await fieldsStore.getValues(userId, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).map((v) => v.fieldId).sort((a, b) => a - b);

describe('DELETE /users/me/profile_data', () => {
  it('removes the values of the listed fields', async () => {
    expectSuccess(await del('hamlet@zulip.com', [1, 2]));
    expect(await storedFieldIds(HAMLET)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it('succeeds silently for a field without a value, and on a repeat', async () => {
    expectSuccess(await del('prospero@zulip.com', [1, 9]));
    expectSuccess(await del('hamlet@zulip.com', [3]));
    expectSuccess(await del('hamlet@zulip.com', [3]));
    expect(await storedFieldIds(HAMLET)).not.toContain(3);
  });

  it('lets an administrator remove a value of a field that users may not edit', async () => {
    expectSuccess(await del('iago@zulip.com', [10]));
    expect(await storedFieldIds(IAGO)).not.toContain(10);
  });

  it.each([
    ['a field that does not exist', [1234], 'Field id 1234 not found.'],
    ["another organization's field", [11], 'Field id 11 not found.'],
    ['a field only administrators may edit', [10], RESTRICTED],
    ['a list with one unknown field after known ones', [5, 6, 1234], 'Field id 1234 not found.'],
    ['ids that are not integers', ['5'], 'data[0] is not an integer'],
    ['data that is not a list', 5, 'data is not a list'],
  ])('refuses %s and removes nothing', async (_what, data, msg) => {
    const before = await storedFieldIds(HAMLET);
    expectError(await del('hamlet@zulip.com', data), msg);
    expect(await storedFieldIds(HAMLET)).toEqual(before);
  });

  it('requires data', async () => {
    expectError(await del('hamlet@zulip.com', undefined), "Missing 'data' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses bots', async () => {
    expectError(await del('default-bot@zulip.com', [1]), 'This endpoint does not accept bot requests.');
  });

  it('sends one realm_user update with a null value per removed value, to the organization', async () => {
    const cordeliaQueue = await openQueue('cordelia@zulip.com', { eventTypes: ['realm_user'] });
    const learQueue = await openQueue('king@lear.org');
    expectSuccess(await del('iago@zulip.com', [4, 2, 4]));
    expect(await cordeliaQueue.drain()).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: IAGO, custom_profile_field: { id: 4, value: null } } },
      { type: 'realm_user', op: 'update', person: { user_id: IAGO, custom_profile_field: { id: 2, value: null } } },
    ]);
    expect(await learQueue.drain()).toEqual([]);
  });

  it('sends nothing for fields without a value', async () => {
    const queue = await openQueue('cordelia@zulip.com', { eventTypes: ['realm_user'] });
    expectSuccess(await del('prospero@zulip.com', [1, 2]));
    expect(await queue.drain()).toEqual([]);
  });
});
