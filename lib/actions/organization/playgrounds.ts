// Code playgrounds: add and remove, for administrators, with upstream's validation and messages
// (zerver/views/realm_playgrounds.py, zerver/actions/realm_playgrounds.py,
// zerver/models/realm_playgrounds.py). Every change sends the whole list to the organization.
import { ApiError, BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { sortPlaygrounds, toApiPlayground, type Playground } from '../../models/playground';
import type { User } from '../../models/user';
import { allocateIds } from '../../store/common';
import * as playgroundsStore from '../../store/playgrounds';
import { parseUriTemplate } from '../../validation/uri-template';
import { forAdministrators } from '../requiring';
import { LostRaceError, retryLostRaces } from '../retry';

/** Upstream's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH. */
export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
/** What the view lets through (a space too, which the model then refuses). */
export const PYGMENTS_LANGUAGE_PARAM = /^[ a-zA-Z0-9_+\-./#]*$/;
/** The characters a stored language may have (upstream's FENCED_CODE_LANGUAGE_REGEX). */
const PYGMENTS_LANGUAGE = /^[a-zA-Z0-9_+\-./#]+$/;
const INVALID_LANGUAGE = 'Invalid characters in pygments language';

/** `realm_playgrounds` with the whole list, to everyone in the organization. */
const notifyPlaygrounds = async (realmId: number): Promise<void> => {
  const playgrounds = sortPlaygrounds(await playgroundsStore.listPlaygrounds(realmId, { consistent: true }));
  await sendEvent(realmId, { type: 'realm_playgrounds', realm_playgrounds: playgrounds.map(toApiPlayground) }, 'realm');
};

/**
 * Upstream's RealmPlayground.full_clean: the field errors in the model's field order (url_template,
 * name, pygments_language), then the template's variables. 400 with the first message as `msg` and
 * all of them under `errors`, keyed by field or `__all__`.
 */
const validatePlayground = (name: string, language: string, urlTemplate: string): void => {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const template = urlTemplate === '' ? null : parseUriTemplate(urlTemplate);
  if (urlTemplate === '') add('url_template', 'This field cannot be blank.');
  else if (!template) add('url_template', 'Invalid URL template.');
  if (name === '') add('name', 'This field cannot be blank.');
  if (language === '') add('pygments_language', 'This field cannot be blank.');
  else if (!PYGMENTS_LANGUAGE.test(language)) add('pygments_language', INVALID_LANGUAGE);
  if (template) {
    const variables = new Set(template.variables);
    if (!variables.has('code')) add('__all__', 'Missing the required variable "code" in the URL template');
    else if (variables.size !== 1) add('__all__', '"code" should be the only variable present in the URL template');
  }
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new ApiError(messages[0]!, { data: { errors } });
};

/**
 * POST /realm/playgrounds: the stripped name, language and template, validated; refused when the
 * organization has a playground of this language and name. Returns the new playground's id.
 */
export const checkAddPlayground = forAdministrators(
  async (user: User, name: string, pygmentsLanguage: string, urlTemplate: string): Promise<number> => {
    const playground: Playground = {
      id: 0,
      realmId: user.realmId,
      name: name.trim(),
      pygmentsLanguage: pygmentsLanguage.trim(),
      urlTemplate: urlTemplate.trim(),
    };
    validatePlayground(playground.name, playground.pygmentsLanguage, playground.urlTemplate);
    playground.id = await allocateIds('playground');
    const outcome = await retryLostRaces(async () => {
      const written = await playgroundsStore.createPlayground(playground);
      if (written === 'conflict') throw new LostRaceError();
      return written;
    });
    if (outcome === 'taken') {
      const errors = { __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] };
      throw new ApiError(errors.__all__[0]!, { data: { errors } });
    }
    if (outcome === 'full') throw new BadRequestError('Too many code playgrounds in this organization');
    await notifyPlaygrounds(user.realmId);
    return playground.id;
  },
);

/** DELETE /realm/playgrounds/{playground_id}: "Invalid playground" unless it is the organization's. */
export const checkRemovePlayground = forAdministrators(async (user: User, playgroundId: number): Promise<void> => {
  await retryLostRaces(async () => {
    const playground = await playgroundsStore.getPlayground(user.realmId, playgroundId);
    if (!playground) throw new BadRequestError('Invalid playground');
    const outcome = await playgroundsStore.deletePlayground(playground);
    if (outcome === 'gone') throw new BadRequestError('Invalid playground');
    if (outcome === 'conflict') throw new LostRaceError();
  });
  await notifyPlaygrounds(user.realmId);
});
