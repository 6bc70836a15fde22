// The organization's custom profile fields as the pages show them (the user card, my profile
// settings): a list's options in their order, and a person's values as text (an option's text,
// people's names). What only the administrators' section needs is in profile-field-editing.ts.
import type { ProfileField, User } from '../api/types';
import { namesOf, type People } from './people';

export const FIELD_TYPE = { shortText: 1, longText: 2, select: 3, date: 4, link: 5, user: 6, externalAccount: 7, pronouns: 8 } as const;

/** A list field's options, [key, text], in their order. */
export const choicesOf = (field: ProfileField): [string, string][] => {
  try {
    const data = JSON.parse(field.field_data) as Record<string, { text: string; order: string }>;
    return Object.entries(data)
      .sort((a, b) => Number(a[1].order) - Number(b[1].order))
      .map(([key, choice]) => [key, choice.text]);
  } catch {
    return [];
  }
};

/** A value as text: a list's option by its text, people by their names, anything else as stored. */
export const fieldValueText = (field: ProfileField, value: string, people: People): string => {
  if (field.type === FIELD_TYPE.select) return choicesOf(field).find(([key]) => key === value)?.[1] ?? value;
  if (field.type === FIELD_TYPE.user) {
    try {
      return namesOf(people, JSON.parse(value) as number[]);
    } catch {
      return value;
    }
  }
  return value;
};

/** The fields a person has a value for, in the organization's order, each with its text (a link's target too). */
export const filledFields = (
  fields: readonly ProfileField[],
  user: User,
  people: People,
): { field: ProfileField; text: string; href?: string }[] =>
  fields.flatMap((field) => {
    const value = user.profile_data?.[String(field.id)]?.value;
    if (value === undefined || value === '') return [];
    const href = field.type === FIELD_TYPE.link && /^https?:\/\//.test(value) ? value : undefined;
    return [{ field, text: fieldValueText(field, value, people), href }];
  });
