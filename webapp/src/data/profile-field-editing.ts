// What the administrators' custom profile fields section needs, apart from the first load: upstream's
// types by name, and a list field's options from the lines typed.
import { FIELD_TYPE } from './profile-fields';

/** The types an administrator may create, with upstream's names for them. */
export const FIELD_TYPES: readonly { id: number; label: string }[] = [
  { id: FIELD_TYPE.shortText, label: 'Short text' },
  { id: FIELD_TYPE.longText, label: 'Long text' },
  { id: FIELD_TYPE.select, label: 'List of options' },
  { id: FIELD_TYPE.date, label: 'Date picker' },
  { id: FIELD_TYPE.link, label: 'Link' },
  { id: FIELD_TYPE.user, label: 'Users' },
  { id: FIELD_TYPE.externalAccount, label: 'External account' },
  { id: FIELD_TYPE.pronouns, label: 'Pronouns' },
];

export const fieldTypeLabel = (type: number): string => FIELD_TYPES.find((t) => t.id === type)?.label ?? 'Unknown';

/** A list field's field_data from its options' texts, one per line (empty lines left out). */
export const choicesData = (lines: string): Record<string, { text: string; order: string }> =>
  Object.fromEntries(
    lines
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .map((text, i) => [String(i), { text, order: String(i + 1) }]),
  );
