import { handler as register } from '../../../functions/events/register';
import { createField, listFields, storedFields } from './helpers';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const ADMIN = 'iago@zulip.com';

/** Creates with every parameter an upstream client sends, overridable. */
const create = (params: Record<string, unknown>, as = ADMIN) => createField(as, { name: 'Team', hint: '', field_type: 1, ...params });

describe('GET /realm/profile_fields', () => {
  it('lists the organization’s fields in display order, for any user', async () => {
    const body = expectSuccess(await listFields('hamlet@zulip.com'));
    expect(body.custom_fields.map((f: { id: number }) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(body.custom_fields[3]).toEqual({
      id: 4,
      name: 'Favorite editor',
      type: 3,
      hint: '',
      field_data: '{"0": {"text": "Vim", "order": "1"}, "1": {"text": "Emacs", "order": "2"}}',
      order: 4,
      required: false,
      editable_by_user: true,
      display_in_profile_summary: true,
    });
    expect(expectSuccess(await listFields('king@lear.org')).custom_fields.map((f: { id: number }) => f.id)).toEqual([11]);
  });
});

describe('POST /realm/profile_fields', () => {
  it('creates a field last in the order and sends the list to another user', async () => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['custom_profile_fields'] });
    const { id } = expectSuccess(await create({ name: '  Team  ', hint: 'Which team?', required: true, editable_by_user: false }));
    const field = (await storedFields()).find((f) => f.id === id)!;
    expect(field).toMatchObject({
      name: 'Team',
      hint: 'Which team?',
      type: 1,
      order: id,
      fieldData: '',
      required: true,
      editableByUser: false,
    });
    const events = await queue.drain();
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('custom_profile_fields');
    expect(events[0].fields.map((f: { id: number }) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, id]);
    expect(events[0].fields.at(-1)).toEqual({
      id,
      name: 'Team',
      type: 1,
      hint: 'Which team?',
      field_data: '',
      order: id,
      required: true,
      editable_by_user: false,
    });
  });

  it('stores a dropdown’s choices as JSON', async () => {
    const choices = { a: { text: 'Red', order: '1' }, b: { text: 'Blue', order: '2' } };
    const { id } = expectSuccess(await create({ name: 'Color', field_type: 3, field_data: choices }));
    expect((await storedFields()).find((f) => f.id === id)!.fieldData).toBe(JSON.stringify(choices));
  });

  it('fills a ready-made external account from upstream’s table, ignoring the name and hint sent', async () => {
    const { id } = expectSuccess(await create({ name: 'ignored', hint: 'ignored', field_type: 7, field_data: { subtype: 'gitlab' } }));
    expect((await storedFields()).find((f) => f.id === id)).toMatchObject({
      name: 'GitLab username',
      hint: '',
      fieldData: '{"subtype":"gitlab"}',
    });
  });

  it('keeps a custom external account’s URL pattern', async () => {
    const data = { subtype: 'custom', url_pattern: 'https://people.example.com/%(username)s' };
    const { id } = expectSuccess(await create({ name: 'Directory', field_type: 7, field_data: data }));
    expect(JSON.parse((await storedFields()).find((f) => f.id === id)!.fieldData)).toEqual(data);
  });

  it.each([
    ['a blank label', { name: '   ' }, 'Label cannot be blank.'],
    ['a long label', { name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
    ['a long hint', { hint: 'x'.repeat(81) }, 'hint is too long (limit: 80 characters)'],
    ['an unknown type', { field_type: 9 }, 'Invalid field type.'],
    ['a label already used', { name: 'Phone number' }, 'A field with that label already exists.'],
    ['a dropdown without choices', { field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
    ['a dropdown with a blank key', { field_type: 3, field_data: { ' ': { text: 'A', order: '1' } } }, "'value' cannot be blank."],
    ['a choice without text', { field_type: 3, field_data: { a: { order: '1' } } }, 'text key is missing from field_data'],
    ['a choice with blank text', { field_type: 3, field_data: { a: { text: ' ', order: '1' } } }, 'field_data["text"] cannot be blank.'],
    ['a choice with extra keys', { field_type: 3, field_data: { a: { text: 'A', order: '1', x: 'y' } } }, 'Unexpected arguments: x'],
    [
      'duplicate choices',
      { field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } },
      'Field must not have duplicate choices.',
    ],
    ['an external account without subtype', { field_type: 7, field_data: {} }, 'subtype key is missing from field_data'],
    ['an unknown external account', { field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
    [
      'a URL pattern without a username',
      { field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://example.com/' } },
      "URL pattern must contain '%(username)s'.",
    ],
    [
      'a URL pattern that is no URL',
      { field_type: 7, field_data: { subtype: 'custom', url_pattern: 'not a url %(username)s' } },
      'field_data["url_pattern"] is not a URL',
    ],
    [
      'a Users field in the profile summary',
      { field_type: 6, display_in_profile_summary: true },
      'Only 2 custom profile fields can be displayed in the profile summary.',
    ],
    ['field_data that is no object', { field_data: [] }, 'field_data is not a dict'],
    [
      'field_data too large to store',
      {
        field_type: 3,
        field_data: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`c${i}`, { text: `Choice ${i}`, order: `${i}` }])),
      },
      'field_data is too long (limit: 50000 characters)',
    ],
    ['a field_type that is no integer', { field_type: '"1"' }, 'field_type is not an integer'],
    ['a required flag that is no boolean', { required: 1 }, 'required is not a boolean'],
  ])('refuses %s and creates nothing', async (_what, params, msg) => {
    const before = await storedFields();
    expectError(await create(params), msg);
    expect(await storedFields()).toEqual(before);
  });

  it('refuses a Users field in the profile summary once the limit has room', async () => {
    // The seeded organization already shows 4 fields in the summary: make room first.
    const { checkUpdateCustomProfileField } = await import('../../../lib/actions/organization/profile-fields');
    const usersStore = await import('../../../lib/store/users');
    const iago = (await usersStore.listByEmail(ADMIN))[0]!;
    for (const id of [3, 4, 6, 9]) await checkUpdateCustomProfileField(iago, id, { displayInProfileSummary: false });
    const before = await storedFields();
    expectError(
      await create({ field_type: 6, display_in_profile_summary: true }),
      'Field type not supported for display in profile summary.',
    );
    expect(await storedFields()).toEqual(before);
    expectSuccess(await create({ name: 'Shown', display_in_profile_summary: true }));
    expectSuccess(await create({ name: 'Shown too', field_type: 2, display_in_profile_summary: true }));
    expectError(
      await create({ name: 'One more', display_in_profile_summary: true }),
      'Only 2 custom profile fields can be displayed in the profile summary.',
    );
  });

  it('requires field_type', async () => {
    expectError(await createField(ADMIN, { name: 'X' }), "Missing 'field_type' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it.each([['hamlet@zulip.com'], ['shiva@zulip.com'], ['polonius@zulip.com']])('refuses %s, who is no administrator', async (email) => {
    const before = await storedFields();
    expectError(await create({ name: 'Nope' }, email), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await storedFields()).toEqual(before);
  });

  it('lets only one of two concurrent creates with the same label succeed', async () => {
    const results = await Promise.all([create({ name: 'Desk' }), create({ name: 'Desk' })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expectError(
      results.find((r) => r.status === 400)!,
      'A field with that label already exists.',
    );
    expect((await storedFields()).filter((f) => f.name === 'Desk')).toHaveLength(1);
  });

  it('lets the same label exist in another organization', async () => {
    expectSuccess(await create({ name: 'Phone number' }, 'king@lear.org'));
    expect((await storedFields(3)).map((f) => f.name)).toEqual(['Title', 'Phone number']);
  });

  it('shows the new field in register’s custom_profile_fields', async () => {
    const { id } = expectSuccess(await create({ name: 'Office' }));
    const body = expectSuccess(
      await call(register, {
        method: 'POST',
        path: '/register',
        as: 'hamlet@zulip.com',
        params: { fetch_event_types: ['custom_profile_fields'] },
      }),
    );
    expect(body.custom_profile_fields.at(-1)).toMatchObject({ id, name: 'Office', order: id });
  });
});
