// The lists of the organization settings' sections: a table with its column headings (or a line
// saying the list is empty), and the controls of an ordered list's row (up, down, edit, delete),
// labelled with what they act on, with the new order of ids a move asks the server for.
import type { ComponentChildren } from 'preact';

type TableProps = { class: string; empty: string; columns: readonly (string | false)[]; rows: number; children: ComponentChildren };

export const AdminTable = ({ class: name, empty, columns, rows, children }: TableProps) =>
  rows === 0 ? (
    <p class="settings-empty">{empty}</p>
  ) : (
    <table class={`admin-table ${name}`}>
      <thead>
        <tr>
          {columns.map(
            (c) =>
              c !== false && (
                <th key={c} scope="col">
                  {c}
                </th>
              ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );

/** The ids in order with the one at `index` moved by `by` places. */
export const movedOrder = (ids: readonly number[], index: number, by: number): number[] => {
  const next = [...ids];
  const [id] = next.splice(index, 1);
  next.splice(index + by, 0, id!);
  return next;
};

type RowProps = { name: string; index: number; count: number; onMove: (by: number) => void; onEdit: () => void; onDelete: () => void };

export const OrderedRowActions = ({ name, index, count, onMove, onEdit, onDelete }: RowProps) => (
  <td class="row-actions">
    <button type="button" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
      ↑
    </button>
    <button type="button" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
      ↓
    </button>
    <button type="button" aria-label={`Edit ${name}`} onClick={onEdit}>
      Edit
    </button>
    <button type="button" class="danger" aria-label={`Delete ${name}`} onClick={onDelete}>
      Delete
    </button>
  </td>
);
