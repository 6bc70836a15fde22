import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import { expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { storedFields, updateField } from './helpers';

const ADMIN = 'iago@zulip.com';
const HAMLET = 10;
const IAGO = 11;

const field = async (id: number) => (await storedFields()).find((f) => f.id === id)!;

describe('PATCH /realm/profile_fields/{field_id}', () => {
  it('changes the label, hint and flags it is sent and keeps the rest', async () => {
    expectSuccess(await updateField(ADMIN, 1, { name: ' Phone ', hint: 'Work phone', required: true, editable_by_user: false }));
    expect(await field(1)).toMatchObject({ name: 'Phone', hint: 'Work phone', type: 1, order: 1, required: true, editableByUser: false });
    expectSuccess(await updateField(ADMIN, 1, { required: false }));
    expect(await field(1)).toMatchObject({ name: 'Phone', hint: 'Work phone', required: false, editableByUser: false });
  });

  it('sends the whole list to another user', async () => {
    const queue = await openQueue('cordelia@zulip.com', { eventTypes: ['custom_profile_fields'] });
    expectSuccess(await updateField(ADMIN, 2, { hint: 'Tell us' }));
    const events = await queue.drain();
    expect(events).toHaveLength(1);
    expect(events[0].fields).toHaveLength(10);
    expect(events[0].fields[1]).toMatchObject({ id: 2, name: 'Biography', hint: 'Tell us' });
  });

  it('removes the values of dropped dropdown choices, with a realm_user update per user', async () => {
    const queue = await openQueue('cordelia@zulip.com', { eventTypes: ['realm_user', 'custom_profile_fields'] });
    // Hamlet chose "0" (Vim), Iago "1" (Emacs); "1" goes.
    expectSuccess(await updateField(ADMIN, 4, { field_data: { 0: { text: 'Vim', order: '1' }, 2: { text: 'Nano', order: '2' } } }));
    expect(JSON.parse((await field(4)).fieldData)).toEqual({ 0: { text: 'Vim', order: '1' }, 2: { text: 'Nano', order: '2' } });
    expect((await fieldsStore.getValues(HAMLET, [4]))[0]?.value).toBe('0');
    expect(await fieldsStore.getValues(IAGO, [4])).toEqual([]);
    const events = await queue.drain();
    expect(events[0]).toEqual({
      type: 'realm_user',
      op: 'update',
      person: { user_id: IAGO, custom_profile_field: { id: 4, value: null } },
    });
    expect(events.slice(1).map((e) => e.type)).toEqual(['custom_profile_fields']);
  });

  it('lets a ready-made external account change only its summary and flags', async () => {
    expectError(await updateField(ADMIN, 8, { name: 'Code host' }), 'Default custom field cannot be updated.');
    expectError(await updateField(ADMIN, 8, { field_data: { subtype: 'gitlab' } }), 'Default custom field cannot be updated.');
    expect(await field(8)).toMatchObject({ name: 'GitHub username', fieldData: '{"subtype": "github"}' });
    expectSuccess(await updateField(ADMIN, 8, { name: 'GitHub username', field_data: { subtype: 'github' }, required: true }));
    expect(await field(8)).toMatchObject({ name: 'GitHub username', required: true });
  });

  it.each([
    ['an unknown field', 1234, {}, 'Field id 1234 not found.'],
    ["another organization's field", 11, { name: 'X' }, 'Field id 11 not found.'],
    ['a blank label', 5, { name: '  ' }, 'Label cannot be blank.'],
    ['a long hint', 5, { hint: 'x'.repeat(81) }, 'hint is too long (limit: 80 characters)'],
    ['a label another field has', 5, { name: 'Mentor' }, 'A field with that label already exists.'],
    [
      'one more field in the profile summary',
      5,
      { display_in_profile_summary: true },
      'Only 2 custom profile fields can be displayed in the profile summary.',
    ],
    ['a dropdown without choices', 4, { field_data: {} }, 'Field must have at least one choice.'],
    ['field_data that is no object', 4, { field_data: 'x' }, 'field_data is not valid JSON'],
  ])('refuses %s and changes nothing', async (_what, id, params, msg) => {
    const before = await storedFields();
    const values = await fieldsStore.getValues(IAGO, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expectError(await updateField(ADMIN, id, params), msg);
    expect(await storedFields()).toEqual(before);
    expect(await storedFields(3)).toEqual([expect.objectContaining({ id: 11, name: 'Title' })]);
    expect(await fieldsStore.getValues(IAGO, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual(values);
  });

  it('refuses a member before reading the parameters', async () => {
    const before = await storedFields();
    expectError(
      await updateField('hamlet@zulip.com', 'x', { name: 'X' }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expectError(
      await updateField('hamlet@zulip.com', 5, { name: 'X' }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
    expect(await storedFields()).toEqual(before);
  });

  it('counts only the other fields against the profile-summary limit', async () => {
    // The seed shows 4 fields (3, 4, 6, 9) in the summary: hide two of them.
    expectSuccess(await updateField(ADMIN, 4, { display_in_profile_summary: false }));
    expectSuccess(await updateField(ADMIN, 6, { display_in_profile_summary: false }));
    expectSuccess(await updateField(ADMIN, 3, { display_in_profile_summary: true, hint: 'Or drink' }));
    expect(await field(3)).toMatchObject({ displayInProfileSummary: true, hint: 'Or drink' });
    expectError(
      await updateField(ADMIN, 5, { display_in_profile_summary: true }),
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
    expect(await field(5)).toMatchObject({ displayInProfileSummary: false });
  });
});
