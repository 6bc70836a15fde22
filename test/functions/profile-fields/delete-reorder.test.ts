import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { deleteField, reorderFields, storedFields } from './helpers';

const ADMIN = 'iago@zulip.com';
const HAMLET = 10;
const IAGO = 11;
const ids = async (realmId = 2) => (await storedFields(realmId)).map((f) => f.id);

describe('DELETE /realm/profile_fields/{field_id}', () => {
  it('deletes the field and every user’s value of it, and sends the list to another user', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['custom_profile_fields', 'realm_user'] });
    expect(await fieldsStore.getValues(HAMLET, [2])).toHaveLength(1);
    expectSuccess(await deleteField(ADMIN, 2));
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await fieldsStore.getValues(HAMLET, [2])).toEqual([]);
    expect(await fieldsStore.getValues(IAGO, [2])).toEqual([]);
    expect(await fieldsStore.getValues(HAMLET, [1, 3])).toHaveLength(2);
    const events = await queue.drain();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'custom_profile_fields' });
    expect(events[0].fields.map((f: { id: number }) => f.id)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it.each([
    ['a field already deleted', 2],
    ['an unknown field', 1234],
    ["another organization's field", 11],
  ])('refuses %s with "Field id N not found." and deletes nothing', async (_what, id) => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['custom_profile_fields'] });
    expectError(await deleteField(ADMIN, id), `Field id ${id} not found.`);
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await ids(3)).toEqual([11]);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses a member', async () => {
    expectError(await deleteField('hamlet@zulip.com', 1), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('PATCH /realm/profile_fields', () => {
  it('puts the fields in the order of the list and sends it to another user', async () => {
    const queue = await openQueue('cordelia@zulip.com', { eventTypes: ['custom_profile_fields'] });
    expectSuccess(await reorderFields(ADMIN, [10, 9, 8, 7, 6, 5, 4, 3, 1]));
    expect(await ids()).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 1]);
    expect((await storedFields()).map((f) => f.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const events = await queue.drain();
    expect(events).toHaveLength(1);
    expect(events[0].fields.map((f: { id: number }) => f.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 1]);
  });

  it('ignores ids that are no field of the organization, as upstream', async () => {
    expectSuccess(await reorderFields(ADMIN, [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 999]));
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await ids(3)).toEqual([11]);
  });

  it.each([
    ['a missing field', [1, 3, 4, 5, 6, 7, 8, 9], 'Invalid order mapping.'],
    ['an empty list', [], 'Invalid order mapping.'],
    ['ids that are no integers', [1, '3'], 'order[1] is not an integer'],
    ['a list that is no list', { a: 1 }, 'order is not a list'],
  ])('refuses %s and keeps the order', async (_what, order, msg) => {
    const queue = await openQueue('cordelia@zulip.com', { eventTypes: ['custom_profile_fields'] });
    expectError(await reorderFields(ADMIN, order), msg);
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses a member and a moderator', async () => {
    for (const email of ['hamlet@zulip.com', 'shiva@zulip.com']) {
      expectError(
        await reorderFields(email, [10, 9, 8, 7, 6, 5, 4, 3, 1]),
        'Must be an organization administrator',
        400,
        'UNAUTHORIZED_PRINCIPAL',
      );
    }
    expect(await ids()).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('requires order', async () => {
    expectError(await reorderFields(ADMIN, undefined), "Missing 'order' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });
});
