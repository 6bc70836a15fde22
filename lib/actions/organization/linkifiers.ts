// Linkifiers: list, create, update, delete and reorder, with upstream's validation and messages
// (zerver/views/realm_linkifiers.py, zerver/actions/realm_linkifiers.py, zerver/models/linkifiers.py).
// Every change is one transaction on the organization's linkifier list, conditioned on the list
// version its checks read; when another change got in first, the checks run again on fresh data.
import { ApiError, BadRequestError } from '../../errors';
import { sendEvent } from '../../events/send';
import { sortLinkifiers, toApiLinkifier, type Linkifier } from '../../models/linkifier';
import type { User } from '../../models/user';
import { allocateIds } from '../../store/common';
import * as linkifiersStore from '../../store/linkifiers';
import { BadPatternError, checkPattern } from '../../validation/linkifier-pattern';
import { isValidUriTemplate, parseUriTemplate } from '../../validation/uri-template';
import { forAdministrators } from '../requiring';
import { retryLostRaces } from '../retry';

/** The organization's linkifiers in matching order. */
export const listLinkifiers = async (realmId: number): Promise<Linkifier[]> =>
  sortLinkifiers((await linkifiersStore.readLinkifierList(realmId)).linkifiers);

/** `realm_linkifiers` with the whole ordered list, to the organization (delivered to linkifier_url_template queues). */
const notifyLinkifiers = async (realmId: number, linkifiers: Linkifier[]): Promise<void> => {
  await sendEvent(realmId, { type: 'realm_linkifiers', realm_linkifiers: sortLinkifiers(linkifiers).map(toApiLinkifier) }, 'realm');
};

/**
 * Runs `attempt` on a fresh read of the list until its write is not overtaken by another change
 * (upstream serializes these writes, so every one of them succeeds there).
 */
const withLinkifierList = <T>(realmId: number, attempt: (list: linkifiersStore.LinkifierList) => Promise<T>): Promise<T> =>
  retryLostRaces(
    async () => attempt(await linkifiersStore.readLinkifierList(realmId, { consistent: true })),
    (error) => error instanceof linkifiersStore.LinkifiersChangedError,
  );

/**
 * Upstream's RealmFilter.full_clean: every field error (blank fields, an invalid URL template),
 * then the model checks (the regular expression, the groups named on each side), then
 * uniqueness of the pattern in the organization. 400 with the first message as `msg` and all of
 * them under `errors`, keyed by field or `__all__`.
 */
const validateLinkifier = (pattern: string, urlTemplate: string, others: Linkifier[]): void => {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (pattern === '') add('pattern', 'This field cannot be blank.');
  if (urlTemplate === '') add('url_template', 'This field cannot be blank.');
  else if (!isValidUriTemplate(urlTemplate)) add('url_template', 'Invalid URL template.');
  let modelError: string | undefined;
  try {
    const { groupNames } = checkPattern(pattern);
    const template = parseUriTemplate(urlTemplate);
    if (template) {
      const missingInPattern = template.variables.filter((v) => !groupNames.includes(v)).sort();
      const missingInTemplate = groupNames.filter((g) => !template.variables.includes(g)).sort();
      if (missingInPattern.length > 0) modelError = `Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`;
      else if (missingInTemplate.length > 0)
        modelError = `Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`;
    }
  } catch (error) {
    if (!(error instanceof BadPatternError)) throw error;
    modelError = error.message;
  }
  if (modelError) add('__all__', modelError);
  if (!errors.pattern && others.some((l) => l.pattern === pattern))
    add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  const messages = Object.values(errors).flat();
  if (messages.length > 0) throw new ApiError(messages[0], { data: { errors } });
};

/**
 * POST /realm/filters, for administrators. Validates the
 * stripped pattern and template, appends the linkifier after the others, and sends the list.
 */
export const checkAddLinkifier = forAdministrators(async (user: User, pattern: string, urlTemplate: string): Promise<number> => {
  const [p, t] = [pattern.trim(), urlTemplate.trim()];
  const id = await allocateIds('linkifier');
  const linkifiers = await withLinkifierList(user.realmId, async ({ version, linkifiers: current }) => {
    validateLinkifier(p, t, current);
    const linkifier: Linkifier = {
      id,
      realmId: user.realmId,
      pattern: p,
      urlTemplate: t,
      order: Math.max(-1, ...current.map((l) => l.order)) + 1,
    };
    await linkifiersStore.writeLinkifiers(user.realmId, version, { put: [linkifier] });
    return [...current, linkifier];
  });
  await notifyLinkifiers(user.realmId, linkifiers);
  return id;
});

/**
 * PATCH /realm/filters/{id}, for administrators: the linkifier must be the organization's ("Linkifier not found."),
 * then the same validation as creation; its place in the order is kept. Sends the list.
 */
export const checkUpdateLinkifier = forAdministrators(async (user: User, linkifierId: number, pattern: string, urlTemplate: string) => {
  const [p, t] = [pattern.trim(), urlTemplate.trim()];
  const linkifiers = await withLinkifierList(user.realmId, async ({ version, linkifiers: current }) => {
    const existing = current.find((l) => l.id === linkifierId);
    if (!existing) throw new BadRequestError('Linkifier not found.');
    validateLinkifier(
      p,
      t,
      current.filter((l) => l.id !== linkifierId),
    );
    const updated: Linkifier = { ...existing, pattern: p, urlTemplate: t };
    await linkifiersStore.writeLinkifiers(user.realmId, version, { put: [updated] });
    return current.map((l) => (l.id === linkifierId ? updated : l));
  });
  await notifyLinkifiers(user.realmId, linkifiers);
});

/** DELETE /realm/filters/{id}, for administrators: "Linkifier not found." unless it is the organization's; sends the list. */
export const checkRemoveLinkifier = forAdministrators(async (user: User, linkifierId: number): Promise<void> => {
  const linkifiers = await withLinkifierList(user.realmId, async ({ version, linkifiers: current }) => {
    if (!current.some((l) => l.id === linkifierId)) throw new BadRequestError('Linkifier not found.');
    await linkifiersStore.writeLinkifiers(user.realmId, version, { remove: [linkifierId] });
    return current.filter((l) => l.id !== linkifierId);
  });
  await notifyLinkifiers(user.realmId, linkifiers);
});

/**
 * PATCH /realm/linkifiers, for administrators. Upstream's
 * check_reorder_linkifiers: no duplicates ("The ordered list must not contain duplicated
 * linkifiers"), exactly the organization's ids ("…must enumerate all existing linkifiers exactly
 * once"). Writes every changed order in one transaction with the list version, so two concurrent
 * reorders leave one of the two complete orders. An empty organization with [] changes nothing and
 * sends nothing; otherwise the list is sent.
 */
export const checkReorderLinkifiers = forAdministrators(async (user: User, orderedIds: number[]): Promise<void> => {
  const result = await withLinkifierList(user.realmId, async ({ version, linkifiers: current }) => {
    if (new Set(orderedIds).size !== orderedIds.length)
      throw new BadRequestError('The ordered list must not contain duplicated linkifiers');
    const existing = new Set(current.map((l) => l.id));
    if (orderedIds.length !== existing.size || orderedIds.some((id) => !existing.has(id))) {
      throw new BadRequestError('The ordered list must enumerate all existing linkifiers exactly once');
    }
    if (orderedIds.length === 0) return undefined;
    const byId = new Map(current.map((l) => [l.id, l]));
    const reordered = orderedIds.map((id, order) => ({ ...byId.get(id)!, order }));
    const changed = reordered.filter((l) => byId.get(l.id)!.order !== l.order).map(({ id, order }) => ({ id, order }));
    await linkifiersStore.writeLinkifiers(user.realmId, version, { orders: changed });
    return reordered;
  });
  if (result) await notifyLinkifiers(user.realmId, result);
});
