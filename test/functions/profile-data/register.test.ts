import fixture from '../../../seed/dev-realm.json';
import { handler as register } from '../../../functions/events/register';
import { call, expectSuccess } from '../../helpers/api';

const snapshot = async (as: string | undefined, params: Record<string, unknown> = { fetch_event_types: ['custom_profile_fields'] }) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params }));

const FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Short text' },
  PARAGRAPH: { id: 2, name: 'Paragraph' },
  DROPDOWN: { id: 3, name: 'Dropdown' },
  DATE: { id: 4, name: 'Date' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

describe('POST /register: custom_profile_fields', () => {
  it("returns the organization's fields in order, with the optional keys only when true", async () => {
    const body = await snapshot('hamlet@zulip.com');
    const expected = fixture.custom_profile_fields
      .filter((f) => f.realm_id === 2)
      .sort((a, b) => a.order - b.order)
      .map((f) => {
        const field = f as typeof f & {
          display_in_profile_summary?: boolean;
          use_for_user_matching?: boolean;
          required?: boolean;
          editable_by_user?: boolean;
        };
        return {
          id: f.id,
          name: f.name,
          type: f.type,
          hint: f.hint,
          field_data: f.field_data,
          order: f.order,
          required: field.required ?? false,
          editable_by_user: field.editable_by_user ?? true,
          ...(field.display_in_profile_summary ? { display_in_profile_summary: true } : {}),
          ...(field.use_for_user_matching ? { use_for_user_matching: true } : {}),
        };
      });
    expect(body.custom_profile_fields).toEqual(expected);
  });

  it('marks exactly the fields the development data flags', async () => {
    const fields = (await snapshot('hamlet@zulip.com')).custom_profile_fields as Record<string, unknown>[];
    expect(fields.filter((f) => 'display_in_profile_summary' in f).map((f) => f.id)).toEqual([3, 4, 6, 9]);
    expect(fields.filter((f) => 'use_for_user_matching' in f).map((f) => f.id)).toEqual([8]);
    expect(fields.find((f) => f.id === 10)).toMatchObject({ required: true, editable_by_user: false });
  });

  it('returns the eight field types by name', async () => {
    expect((await snapshot('hamlet@zulip.com')).custom_profile_field_types).toEqual(FIELD_TYPES);
  });

  it('shows another organization only its own fields', async () => {
    const body = await snapshot('king@lear.org');
    expect(body.custom_profile_fields.map((f: { id: number }) => f.id)).toEqual([11]);
  });

  it('gives a spectator no fields but the field types', async () => {
    const body = await snapshot(undefined);
    expect(body.custom_profile_fields).toEqual([]);
    expect(body.custom_profile_field_types).toEqual(FIELD_TYPES);
  });

  it('leaves both keys out when custom_profile_fields is not wanted', async () => {
    const body = await snapshot('hamlet@zulip.com', { fetch_event_types: ['drafts'] });
    expect(body).not.toHaveProperty('custom_profile_fields');
    expect(body).not.toHaveProperty('custom_profile_field_types');
  });
});
