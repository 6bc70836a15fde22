// The organization's custom profile fields (upstream's #organization/profile-field-settings), for
// administrators: the fields in display order; one added with a type (short or long text, a list of
// options, a date, a link, people, an external account, pronouns), a label and a hint (POST
// /json/realm/profile_fields), edited in a dialog (PATCH /json/realm/profile_fields/{id}), deleted
// after confirming (DELETE) and moved up or down (PATCH /json/realm/profile_fields with the new
// order). The list is register's custom_profile_fields, then the custom_profile_fields events; the
// server's refusals (a blank or taken label, a list without options) show as it words them.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { ProfileField } from '../../api/types';
import { choicesData, FIELD_TYPES, fieldTypeLabel } from '../../data/profile-field-editing';
import { choicesOf, FIELD_TYPE } from '../../data/profile-fields';
import { settings } from '../../store';
import { AdminTable, movedOrder, OrderedRowActions } from './AdminTable';
import { ConfirmDialog } from './ConfirmDialog';
import { Status, type StatusText } from './Status';

/** The external accounts upstream knows by name (a custom one needs a URL pattern, not offered here). */
const ACCOUNT_TYPES = [
  { subtype: 'github', label: 'GitHub' },
  { subtype: 'twitter', label: 'Twitter' },
];

type Draft = { type: number; name: string; hint: string; options: string; subtype: string };

/** What the field's type keeps in field_data: a list's options, an external account's kind; else nothing. */
const fieldData = (draft: Draft): Record<string, unknown> | undefined => {
  if (draft.type === FIELD_TYPE.select) return choicesData(draft.options);
  if (draft.type === FIELD_TYPE.externalAccount) return { subtype: draft.subtype };
  return undefined;
};

/** A field's label, hint and, for a list, its options, one per line (the add form's and the edit dialog's). */
const FieldInputs = ({ draft, onChange }: { draft: Draft; onChange: (draft: Draft) => void }) => (
  <>
    <label class="dialog_field">
      Label
      <input type="text" value={draft.name} onInput={(e) => onChange({ ...draft, name: e.currentTarget.value })} />
    </label>
    <label class="dialog_field">
      Hint (optional)
      <input type="text" value={draft.hint} onInput={(e) => onChange({ ...draft, hint: e.currentTarget.value })} />
    </label>
    {draft.type === FIELD_TYPE.select && (
      <label class="dialog_field">
        Options, one per line
        <textarea rows={4} value={draft.options} onInput={(e) => onChange({ ...draft, options: e.currentTarget.value })} />
      </label>
    )}
  </>
);

const EMPTY: Draft = { type: FIELD_TYPE.shortText, name: '', hint: '', options: '', subtype: 'github' };

const AddFieldForm = () => {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [status, setStatus] = useState<StatusText>(null);
  return (
    <form
      class="add-profile-field-form"
      onSubmit={(e) => {
        e.preventDefault();
        setStatus(null);
        request('POST', 'realm/profile_fields', {
          name: draft.name,
          hint: draft.hint,
          field_type: draft.type,
          field_data: fieldData(draft),
        }).then(
          () => {
            setDraft(EMPTY);
            setStatus({ text: 'Field added.', error: false });
          },
          (err: Error) => setStatus({ text: err.message, error: true }),
        );
      }}
    >
      <label>
        Type
        <select value={String(draft.type)} onChange={(e) => setDraft({ ...draft, type: Number(e.currentTarget.value) })}>
          {FIELD_TYPES.map((t) => (
            <option key={t.id} value={String(t.id)}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
      {draft.type === FIELD_TYPE.externalAccount && (
        <label>
          Account
          <select value={draft.subtype} onChange={(e) => setDraft({ ...draft, subtype: e.currentTarget.value })}>
            {ACCOUNT_TYPES.map((a) => (
              <option key={a.subtype} value={a.subtype}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <FieldInputs draft={draft} onChange={setDraft} />
      <button type="submit">Add field</button>
      <Status status={status} />
    </form>
  );
};

const EditDialog = ({ field, onClose }: { field: ProfileField; onClose: () => void }) => {
  const [draft, setDraft] = useState<Draft>({
    ...EMPTY,
    type: field.type,
    name: field.name,
    hint: field.hint,
    options: choicesOf(field)
      .map(([, text]) => text)
      .join('\n'),
  });
  const save = () =>
    request('PATCH', `realm/profile_fields/${field.id}`, {
      name: draft.name,
      hint: draft.hint,
      field_data: field.type === FIELD_TYPE.select ? fieldData(draft) : undefined,
    });
  return (
    <ConfirmDialog role="dialog" title={`Edit ${field.name}`} confirmLabel="Save changes" onConfirm={save} onClose={onClose}>
      <FieldInputs draft={draft} onChange={setDraft} />
    </ConfirmDialog>
  );
};

export const ProfileFieldsSection = () => {
  const [editing, setEditing] = useState<ProfileField | null>(null);
  const [removing, setRemoving] = useState<ProfileField | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fields = settings.value.profileFields;
  const reorder = (index: number, by: number) => {
    setError(null);
    request('PATCH', 'realm/profile_fields', {
      order: movedOrder(
        fields.map((f) => f.id),
        index,
        by,
      ),
    }).catch((err: Error) => setError(err.message));
  };
  return (
    <>
      <h3>Custom profile fields</h3>
      <p class="settings-hint">Fields everyone may fill in on their profile, shown on their user card.</p>
      <AddFieldForm />
      <Status status={error ? { text: error, error: true } : null} />
      <AdminTable
        class="profile-fields-table"
        empty="No custom profile fields."
        columns={['Label', 'Type', 'Hint', 'Actions']}
        rows={fields.length}
      >
        {fields.map((f, i) => (
          <tr key={f.id} data-field-id={f.id}>
            <td class="profile-field-name">{f.name}</td>
            <td class="profile-field-type">{fieldTypeLabel(f.type)}</td>
            <td>{f.hint}</td>
            <OrderedRowActions
              name={f.name}
              index={i}
              count={fields.length}
              onMove={(by) => reorder(i, by)}
              onEdit={() => setEditing(f)}
              onDelete={() => setRemoving(f)}
            />
          </tr>
        ))}
      </AdminTable>
      {editing && <EditDialog field={editing} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmDialog
          title={`Delete the field ${removing.name}?`}
          confirmLabel="Delete"
          onConfirm={() => request('DELETE', `realm/profile_fields/${removing.id}`)}
          onClose={() => setRemoving(null)}
        >
          <p>Everyone’s value of this field is deleted with it.</p>
        </ConfirmDialog>
      )}
    </>
  );
};
