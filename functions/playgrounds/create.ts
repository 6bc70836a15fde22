// POST /realm/playgrounds
import { checkAddPlayground, MAX_PYGMENTS_LANGUAGE_LENGTH, PYGMENTS_LANGUAGE_PARAM } from '../../lib/actions/organization/playgrounds';
import { BadRequestError } from '../../lib/errors';
import { apiHandler } from '../../lib/http/api-handler';
import { rawString } from '../../lib/http/params';
import { string } from '../../lib/validation/validators';

/** Upstream's check_pygments_language: a capped string of the characters a code block's language may have, or a space. */
const pygmentsLanguage = (value: unknown, path: string): string => {
  const s = string({ maxLength: MAX_PYGMENTS_LANGUAGE_LENGTH })(value, path);
  if (!PYGMENTS_LANGUAGE_PARAM.test(s)) throw new BadRequestError('Invalid characters in pygments language');
  return s;
};

export const handler = apiHandler(async ({ user, params }) => {
  const addPlayground = checkAddPlayground.authorize(user);
  const { name, url_template, pygments_language } = params({
    name: rawString(),
    url_template: rawString(),
    pygments_language: rawString(pygmentsLanguage),
  });
  return { id: await addPlayground(name, pygments_language, url_template) };
});
