// The organization's linkifiers (upstream's #organization/linkifier-settings): everyone sees them in
// matching order; an administrator adds one (a pattern and a URL template: POST
// /json/realm/filters), edits one in a dialog (PATCH /json/realm/filters/{id}), deletes one after
// confirming (DELETE) and moves one up or down (PATCH /json/realm/linkifiers with the new order).
// The list is register's realm_linkifiers, then the realm_linkifiers events; the server's refusals
// (a bad pattern, a template that does not match it) show as it words them.
import { useState } from 'preact/hooks';
import { request } from '../../api/client';
import type { Linkifier } from '../../api/types';
import { isAdminOf } from '../../data/roles';
import { me, people, settings } from '../../store';
import { AdminTable, movedOrder, OrderedRowActions } from './AdminTable';
import { ConfirmDialog } from './ConfirmDialog';
import { Status, type StatusText } from './Status';

type Fields = { pattern: string; url_template: string };

const LinkifierFields = ({ fields, onChange }: { fields: Fields; onChange: (fields: Fields) => void }) => (
  <>
    <label class="dialog_field">
      Pattern
      <input type="text" value={fields.pattern} onInput={(e) => onChange({ ...fields, pattern: e.currentTarget.value })} />
    </label>
    <label class="dialog_field">
      URL template
      <input type="text" value={fields.url_template} onInput={(e) => onChange({ ...fields, url_template: e.currentTarget.value })} />
    </label>
  </>
);

const AddLinkifierForm = () => {
  const [fields, setFields] = useState<Fields>({ pattern: '', url_template: '' });
  const [status, setStatus] = useState<StatusText>(null);
  return (
    <form
      class="add-linkifier-form"
      onSubmit={(e) => {
        e.preventDefault();
        setStatus(null);
        request('POST', 'realm/filters', fields).then(
          () => {
            setFields({ pattern: '', url_template: '' });
            setStatus({ text: 'Linkifier added.', error: false });
          },
          (err: Error) => setStatus({ text: err.message, error: true }),
        );
      }}
    >
      <LinkifierFields fields={fields} onChange={setFields} />
      <p class="settings-hint">
        For example the pattern <code>#(?P&lt;id&gt;[0-9]+)</code> with the URL template{' '}
        <code>https://github.com/zulip/zulip/issues/{'{id}'}</code>.
      </p>
      <button type="submit">Add linkifier</button>
      <Status status={status} />
    </form>
  );
};

const EditDialog = ({ linkifier, onClose }: { linkifier: Linkifier; onClose: () => void }) => {
  const [fields, setFields] = useState<Fields>({ pattern: linkifier.pattern, url_template: linkifier.url_template });
  return (
    <ConfirmDialog
      role="dialog"
      title="Edit linkifier"
      confirmLabel="Save changes"
      onConfirm={() => request('PATCH', `realm/filters/${linkifier.id}`, fields)}
      onClose={onClose}
    >
      <LinkifierFields fields={fields} onChange={setFields} />
    </ConfirmDialog>
  );
};

export const LinkifiersSection = () => {
  const [editing, setEditing] = useState<Linkifier | null>(null);
  const [removing, setRemoving] = useState<Linkifier | null>(null);
  const [error, setError] = useState<string | null>(null);
  const admin = isAdminOf(people.value, me.value.userId);
  const list = settings.value.linkifiers;
  const reorder = (index: number, by: number) => {
    setError(null);
    request('PATCH', 'realm/linkifiers', {
      ordered_linkifier_ids: movedOrder(
        list.map((l) => l.id),
        index,
        by,
      ),
    }).catch((err: Error) => setError(err.message));
  };
  return (
    <>
      <h3>Linkifiers</h3>
      <p class="settings-hint">Linkifiers turn text in messages into links; the first pattern that matches wins.</p>
      {admin && <AddLinkifierForm />}
      <Status status={error ? { text: error, error: true } : null} />
      <AdminTable
        class="linkifiers-table"
        empty="No linkifiers."
        columns={['Pattern', 'URL template', admin && 'Actions']}
        rows={list.length}
      >
        {list.map((l, i) => (
          <tr key={l.id} data-linkifier-id={l.id}>
            <td class="linkifier-pattern">{l.pattern}</td>
            <td class="linkifier-url">{l.url_template}</td>
            {admin && (
              <OrderedRowActions
                name={l.pattern}
                index={i}
                count={list.length}
                onMove={(by) => reorder(i, by)}
                onEdit={() => setEditing(l)}
                onDelete={() => setRemoving(l)}
              />
            )}
          </tr>
        ))}
      </AdminTable>
      {editing && <EditDialog linkifier={editing} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmDialog
          title={`Delete the linkifier ${removing.pattern}?`}
          confirmLabel="Delete"
          onConfirm={() => request('DELETE', `realm/filters/${removing.id}`)}
          onClose={() => setRemoving(null)}
        >
          <p>New messages will no longer link this pattern; messages already sent keep their links.</p>
        </ConfirmDialog>
      )}
    </>
  );
};
