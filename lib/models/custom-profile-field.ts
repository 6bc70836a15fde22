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

/** Upstream's CustomProfileField.NAME_MAX_LENGTH, HINT_MAX_LENGTH and MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS. */
export const FIELD_NAME_MAX_LENGTH = 40;
export const FIELD_HINT_MAX_LENGTH = 80;
export const MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS = 2;

/** An external account subtype upstream offers ready-made (name, hint and URL come from here). */
export type ExternalAccount = { text: string; url_pattern: string; name: string; hint: string };

const account = (text: string, url_pattern: string, name: string, hint = ''): ExternalAccount => ({ text, url_pattern, name, hint });

/**
 * Upstream's DEFAULT_EXTERNAL_ACCOUNTS (zerver/lib/external_accounts.py), by subtype: register's
 * `realm_default_external_accounts`, and the fields POST /realm/profile_fields creates for a
 * subtype other than "custom". A url_pattern of "" makes the field a text field.
 */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, ExternalAccount>> = {
  behance: account('Behance', 'https://www.behance.net/%(username)s', 'Behance username'),
  bitbucket: account('Bitbucket', 'https://bitbucket.org/%(username)s', 'Bitbucket username'),
  bluesky: account('Bluesky', 'https://bsky.app/profile/%(username)s', 'Bluesky handle'),
  codeberg: account('Codeberg', 'https://codeberg.org/%(username)s', 'Codeberg username'),
  discord: account('Discord', '', 'Discord tag'),
  dribbble: account('Dribbble', 'https://dribbble.com/%(username)s', 'Dribbble username'),
  facebook: account('Facebook', 'https://www.facebook.com/%(username)s', 'Facebook username'),
  github: account('GitHub', 'https://github.com/%(username)s', 'GitHub username'),
  gitlab: account('GitLab', 'https://gitlab.com/%(username)s', 'GitLab username'),
  instagram: account('Instagram', 'https://www.instagram.com/%(username)s', 'Instagram username'),
  linkedin: account('LinkedIn', 'https://www.linkedin.com/in/%(username)s', 'LinkedIn profile name'),
  mastodon: account('Mastodon', '%(username)s', 'Mastodon profile', 'The full URL to your profile'),
  medium: account('Medium', 'https://%(username)s.medium.com', 'Medium username'),
  pinterest: account('Pinterest', 'https://www.pinterest.com/%(username)s', 'Pinterest username'),
  reddit: account('Reddit', 'https://www.reddit.com/user/%(username)s', 'Reddit username'),
  snapchat: account('Snapchat', 'https://www.snapchat.com/@%(username)s', 'Snapchat username'),
  threads: account('Threads', 'https://www.threads.com/@%(username)s', 'Threads username'),
  tiktok: account('TikTok', 'https://www.tiktok.com/@%(username)s', 'TikTok username'),
  twitch: account('Twitch', 'https://www.twitch.tv/%(username)s', 'Twitch username'),
  x: account('X', 'https://x.com/%(username)s', 'X username'),
  youtube: account('YouTube', 'https://www.youtube.com/%(username)s', 'YouTube handle'),
};

/** Whether `subtype` names one of the ready-made external accounts (not "custom", not unknown). */
export const isDefaultExternalAccount = (subtype: unknown): subtype is string =>
  typeof subtype === 'string' && Object.prototype.hasOwnProperty.call(DEFAULT_EXTERNAL_ACCOUNTS, subtype);
