import { handler as updateProfileData } from '../../../functions/profile-data/update';
import * as fieldsStore from '../../../lib/store/custom-profile-fields';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const HAMLET = 10;
const FIELD = { phone: 1, biography: 2, food: 3, editor: 4, birthday: 5, website: 6, mentor: 7, github: 8, pronouns: 9, employeeId: 10 };
const ALL_FIELDS = Object.values(FIELD);

const patch = (as: string, data: unknown) =>
  call(updateProfileData, { method: 'PATCH', path: '/users/me/profile_data', as, params: data === undefined ? {} : { data } });
/** The stored values of a user, by field id. */
const values = async (userId: number) =>
  Object.fromEntries((await fieldsStore.getValues(userId, [...ALL_FIELDS, 11])).map((v) => [v.fieldId, v]));

describe('PATCH /users/me/profile_data', () => {
  it('sets a value of every field type, rendering the text types', async () => {
    const data = [
      { id: FIELD.phone, value: '*short* text data' },
      { id: FIELD.biography, value: '~~short~~ **long** text data' },
      { id: FIELD.food, value: 'long short text data' },
      { id: FIELD.editor, value: '1' },
      { id: FIELD.birthday, value: '1909-03-05' },
      { id: FIELD.website, value: 'https://zulip.com' },
      { id: FIELD.mentor, value: [8] },
      { id: FIELD.github, value: 'zulip-mobile' },
      { id: FIELD.pronouns, value: 'she/her' },
    ];
    expectSuccess(await patch('hamlet@zulip.com', data));
    const stored = await values(HAMLET);
    expect(Object.fromEntries(Object.values(stored).map((v) => [v.fieldId, [v.value, v.renderedValue]]))).toEqual({
      [FIELD.phone]: ['*short* text data', '<p><em>short</em> text data</p>'],
      [FIELD.biography]: ['~~short~~ **long** text data', '<p><del>short</del> <strong>long</strong> text data</p>'],
      [FIELD.food]: ['long short text data', '<p>long short text data</p>'],
      [FIELD.editor]: ['1', undefined],
      [FIELD.birthday]: ['1909-03-05', undefined],
      [FIELD.website]: ['https://zulip.com', undefined],
      [FIELD.mentor]: ['[8]', undefined],
      [FIELD.github]: ['zulip-mobile', undefined],
      [FIELD.pronouns]: ['she/her', undefined],
    });
  });

  it('stores a Users value as JSON text in the order given', async () => {
    expectSuccess(await patch('hamlet@zulip.com', [{ id: FIELD.mentor, value: [14, 8] }]));
    expect((await values(HAMLET))[FIELD.mentor].value).toBe('[14,8]');
  });

  it('creates a value for a field the user had none for', async () => {
    expectSuccess(await patch('cordelia@zulip.com', [{ id: FIELD.phone, value: '555' }]));
    expect((await values(8))[FIELD.phone]).toMatchObject({ value: '555', renderedValue: '<p>555</p>', realmId: 2 });
  });

  it('stores an empty string as a value', async () => {
    expectSuccess(await patch('hamlet@zulip.com', [{ id: FIELD.github, value: '' }]));
    expect((await values(HAMLET))[FIELD.github].value).toBe('');
  });

  it('removes the stored value when the value is null', async () => {
    expectSuccess(await patch('hamlet@zulip.com', [{ id: FIELD.biography, value: null }]));
    expect((await values(HAMLET))[FIELD.biography]).toBeUndefined();
  });

  it('accepts null for a field without a value', async () => {
    expectSuccess(await patch('prospero@zulip.com', [{ id: FIELD.biography, value: null }]));
    expect(await values(14)).toEqual({});
  });

  it('applies the last value when a field is named twice', async () => {
    expectSuccess(
      await patch('hamlet@zulip.com', [
        { id: FIELD.food, value: 'first' },
        { id: FIELD.food, value: 'second' },
      ]),
    );
    expect((await values(HAMLET))[FIELD.food].value).toBe('second');
  });

  it('accepts an empty list', async () => {
    const before = await values(HAMLET);
    expectSuccess(await patch('hamlet@zulip.com', []));
    expect(await values(HAMLET)).toEqual(before);
  });

  it('ignores unknown keys in an item', async () => {
    expectSuccess(await patch('hamlet@zulip.com', [{ id: FIELD.food, value: 'Tea', name: 'ignored' }]));
    expect((await values(HAMLET))[FIELD.food].value).toBe('Tea');
  });

  it('lets an administrator edit a field that users may not edit', async () => {
    expectSuccess(await patch('iago@zulip.com', [{ id: FIELD.employeeId, value: 'A-0012' }]));
    expect((await values(IAGO))[FIELD.employeeId].value).toBe('A-0012');
  });

  it.each([
    ['a field that does not exist', [{ id: 1234, value: '12' }], 'Field id 1234 not found.'],
    ["another organization's field", [{ id: 11, value: 'Duke' }], 'Field id 11 not found.'],
    [
      'a field only administrators may edit',
      [{ id: FIELD.employeeId, value: 'H-1' }],
      'You are not allowed to change this field. Contact an administrator to update it.',
    ],
    [
      'removing a field only administrators may edit',
      [{ id: FIELD.employeeId, value: null }],
      'You are not allowed to change this field. Contact an administrator to update it.',
    ],
    ['a short text over 50 characters', [{ id: FIELD.phone, value: 't'.repeat(51) }], 'Phone number is too long (limit: 50 characters)'],
    ['a paragraph over 500 characters', [{ id: FIELD.biography, value: 'b'.repeat(501) }], 'Biography is too long (limit: 500 characters)'],
    ['pronouns over 50 characters', [{ id: FIELD.pronouns, value: 'p'.repeat(51) }], 'Pronouns is too long (limit: 50 characters)'],
    [
      'an external account over 50 characters',
      [{ id: FIELD.github, value: 'g'.repeat(51) }],
      'GitHub username is too long (limit: 50 characters)',
    ],
    ['a list for a text field', [{ id: FIELD.phone, value: [1] }], 'Phone number is not a string'],
    ['a date that is not a date', [{ id: FIELD.birthday, value: 'a-b-c' }], 'Birthday is not a date'],
    ['a date without zero padding', [{ id: FIELD.birthday, value: '1909-3-5' }], 'Birthday is not a date'],
    ['a date without dashes', [{ id: FIELD.birthday, value: '19090305' }], 'Birthday is not a date'],
    ['a day that does not exist', [{ id: FIELD.birthday, value: '2023-02-29' }], 'Birthday is not a date'],
    ['a list for a date', [{ id: FIELD.birthday, value: [123] }], 'Birthday is not a string'],
    ['a link that is not a URL', [{ id: FIELD.website, value: 'not URL' }], 'Favorite website is not a URL'],
    ['a link without a scheme', [{ id: FIELD.website, value: 'zulip.com' }], 'Favorite website is not a URL'],
    ['a link with another scheme', [{ id: FIELD.website, value: 'javascript:alert(1)' }], 'Favorite website is not a URL'],
    ['a choice that does not exist', [{ id: FIELD.editor, value: 'foobar' }], "'foobar' is not a valid choice for 'Favorite editor'."],
    ['unknown users', [{ id: FIELD.mentor, value: [1000, 8, 999] }], 'Invalid user IDs: 1000, 999'],
    ["another organization's user", [{ id: FIELD.mentor, value: [20] }], 'Invalid user IDs: 20'],
    ['a deactivated user', [{ id: FIELD.mentor, value: [8, 18] }], 'User with ID 18 is deactivated'],
    ['a bot', [{ id: FIELD.mentor, value: [16] }], 'User with ID 16 is a bot'],
    ['a string for a Users field', [{ id: FIELD.mentor, value: '8' }], 'User IDs is not a list'],
    [
      'a valid item followed by an invalid one',
      [
        { id: FIELD.food, value: 'Tea' },
        { id: FIELD.birthday, value: 'soon' },
      ],
      'Birthday is not a date',
    ],
    ['an item missing its value', [{ id: FIELD.food }], 'data[0]["value"] field is missing: Field required'],
    ['an id that is not an integer', [{ id: '3', value: 'Tea' }], 'data[0]["id"] is not an integer'],
    ['a number as a value', [{ id: FIELD.food, value: 3 }], 'data[0]["value"] is not a string'],
    ['data that is not a list', { id: FIELD.food, value: 'Tea' }, 'data is not a list'],
  ])('refuses %s and changes nothing', async (_what, data, msg) => {
    const before = await values(HAMLET);
    expectError(await patch('hamlet@zulip.com', data), msg);
    expect(await values(HAMLET)).toEqual(before);
  });

  it('checks the items in order: an unknown field first named wins over a later invalid value', async () => {
    expectError(
      await patch('hamlet@zulip.com', [
        { id: 1234, value: 'x' },
        { id: FIELD.birthday, value: 'soon' },
      ]),
      'Field id 1234 not found.',
    );
  });

  it('requires data', async () => {
    expectError(await patch('hamlet@zulip.com', undefined), "Missing 'data' argument", 400, 'REQUEST_VARIABLE_MISSING');
  });

  it('refuses bots', async () => {
    expectError(await patch('default-bot@zulip.com', [{ id: FIELD.food, value: 'Oil' }]), 'This endpoint does not accept bot requests.');
    expect(await values(16)).toEqual({});
  });

  describe('events', () => {
    it('sends one realm_user update per changed field to the whole organization, with rendered_value for text fields', async () => {
      const hamletQueue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_user'] });
      const cordeliaQueue = await openQueue('cordelia@zulip.com', { eventTypes: ['realm_user'] });
      const learQueue = await openQueue('king@lear.org', { eventTypes: ['realm_user'] });
      expectSuccess(
        await patch('iago@zulip.com', [
          { id: FIELD.food, value: '**Pears**' },
          { id: FIELD.mentor, value: [8] },
          { id: FIELD.pronouns, value: 'he/him' },
        ]),
      );
      const expected = [
        {
          type: 'realm_user',
          op: 'update',
          person: {
            user_id: IAGO,
            custom_profile_field: { id: FIELD.food, value: '**Pears**', rendered_value: '<p><strong>Pears</strong></p>' },
          },
        },
        { type: 'realm_user', op: 'update', person: { user_id: IAGO, custom_profile_field: { id: FIELD.mentor, value: '[8]' } } },
      ];
      expect(await hamletQueue.drain()).toEqual(expected);
      expect(await cordeliaQueue.drain()).toEqual(expected);
      expect(await learQueue.drain()).toEqual([]);
    });

    it('sends value null without rendered_value when a value is removed', async () => {
      const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_user'] });
      expectSuccess(await patch('iago@zulip.com', [{ id: FIELD.biography, value: null }]));
      expect(await queue.drain()).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: IAGO, custom_profile_field: { id: FIELD.biography, value: null } } },
      ]);
    });

    it('sends no rendered_value for an empty text value', async () => {
      const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_user'] });
      expectSuccess(await patch('iago@zulip.com', [{ id: FIELD.phone, value: '' }]));
      expect(await queue.drain()).toEqual([
        { type: 'realm_user', op: 'update', person: { user_id: IAGO, custom_profile_field: { id: FIELD.phone, value: '' } } },
      ]);
    });

    it('sends nothing when no value changes', async () => {
      const data = [
        { id: FIELD.mentor, value: [6, 7] },
        { id: FIELD.pronouns, value: 'they/them' },
        { id: FIELD.birthday, value: null },
      ];
      expectSuccess(await patch('shiva@zulip.com', data));
      const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_user'] });
      expectSuccess(await patch('shiva@zulip.com', data));
      expect(await queue.drain()).toEqual([]);
    });

    it('sends nothing when the request is refused', async () => {
      const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_user'] });
      expectError(
        await patch('hamlet@zulip.com', [
          { id: FIELD.food, value: 'Tea' },
          { id: FIELD.editor, value: '7' },
        ]),
        "'7' is not a valid choice for 'Favorite editor'.",
      );
      expect(await queue.drain()).toEqual([]);
    });

    it('sends one event when two concurrent requests set the same new value', async () => {
      const queue = await openQueue('iago@zulip.com', { eventTypes: ['realm_user'] });
      const results = await Promise.all([1, 2, 3].map(() => patch('hamlet@zulip.com', [{ id: FIELD.github, value: 'hamlet-of-denmark' }])));
      results.forEach((r) => expectSuccess(r));
      expect(await queue.drain()).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: HAMLET, custom_profile_field: { id: FIELD.github, value: 'hamlet-of-denmark' } },
        },
      ]);
    });
  });
});
