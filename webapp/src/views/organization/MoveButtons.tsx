// Moving a row of an ordered list (linkifiers, profile fields) one place up or down: the two
// buttons, labelled with what they move, and the new order of ids they ask the server for.

/** The ids in order with the one at `index` moved by `by` places. */
export const movedOrder = (ids: readonly number[], index: number, by: number): number[] => {
  const next = [...ids];
  const [id] = next.splice(index, 1);
  next.splice(index + by, 0, id!);
  return next;
};

type Props = { name: string; index: number; count: number; onMove: (by: number) => void };

export const MoveButtons = ({ name, index, count, onMove }: Props) => (
  <>
    <button type="button" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
      ↑
    </button>
    <button type="button" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
      ↓
    </button>
  </>
);
