// Language codes (a user's or an organization's default_language). Pure: no I/O.

/** A language's own name ("Deutsch" for de), or undefined for a code that names no language. */
export const languageName = (code: string): string | undefined => {
  if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(code)) return undefined;
  try {
    const name = new Intl.DisplayNames([code], { type: 'language', fallback: 'none' }).of(code);
    return name === undefined || name.toLowerCase() === code.toLowerCase() ? undefined : name;
  } catch {
    return undefined;
  }
};
