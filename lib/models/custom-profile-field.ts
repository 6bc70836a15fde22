/** The eight field types, by upstream's type id. */
export const FieldType = {
  SHORT_TEXT: 1,
  PARAGRAPH: 2,
  DROPDOWN: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;
export type FieldType = (typeof FieldType)[keyof typeof FieldType];

/** Register's `custom_profile_field_types`: each type's id and display name, keyed by type name. */
export const FIELD_TYPES: Record<keyof typeof FieldType, { id: FieldType; name: string }> = {
  SHORT_TEXT: { id: FieldType.SHORT_TEXT, name: 'Short text' },
  PARAGRAPH: { id: FieldType.PARAGRAPH, name: 'Paragraph' },
  DROPDOWN: { id: FieldType.DROPDOWN, name: 'Dropdown' },
  DATE: { id: FieldType.DATE, name: 'Date' },
  URL: { id: FieldType.URL, name: 'Link' },
  USER: { id: FieldType.USER, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: FieldType.EXTERNAL_ACCOUNT, name: 'External account' },
  PRONOUNS: { id: FieldType.PRONOUNS, name: 'Pronouns' },
};

/** An organization's custom profile field (realm partition). */
export type CustomProfileField = {
  id: number;
  realmId: number;
  name: string;
  type: FieldType;
  order: number;
  hint: string;
  /** JSON text: the choices of a dropdown, the subtype of an external account; "" otherwise. */
  fieldData: string;
  displayInProfileSummary: boolean;
  useForUserMatching: boolean;
  required: boolean;
  editableByUser: boolean;
};

/** A user's value for one field (user partition). Users-field values are JSON text, e.g. "[10]". */
export type ProfileValue = {
  userId: number;
  fieldId: number;
  realmId: number;
  value: string;
  /** HTML of text-type values (short text, paragraph); absent for the other types. */
  renderedValue?: string;
};

/** Text types have a rendered (HTML) form of their value. */
export const isRenderable = (type: FieldType): boolean => type === FieldType.SHORT_TEXT || type === FieldType.PARAGRAPH;

/** Register's field entry: the two optional flags appear only when true. */
export const toApiField = (f: CustomProfileField): Record<string, unknown> => ({
  id: f.id,
  name: f.name,
  type: f.type,
  hint: f.hint,
  field_data: f.fieldData,
  order: f.order,
  required: f.required,
  editable_by_user: f.editableByUser,
  ...(f.displayInProfileSummary ? { display_in_profile_summary: true } : {}),
  ...(f.useForUserMatching ? { use_for_user_matching: true } : {}),
});
