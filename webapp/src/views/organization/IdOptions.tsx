// A select's options for things chosen by id (a group, a folder), with an optional first option
// of no value ("None", "Custom") for a choice outside the list.
export const IdOptions = ({ items, none }: { items: readonly { id: number; label: string }[]; none?: string }) => (
  <>
    {none !== undefined && <option value="">{none}</option>}
    {items.map((item) => (
      <option key={item.id} value={String(item.id)}>
        {item.label}
      </option>
    ))}
  </>
);
