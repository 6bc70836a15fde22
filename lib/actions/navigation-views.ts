// Navigation views (upstream's zerver/views/navigation_views.py, zerver/actions/navigation_views.py):
// a user's configuration of the views in the web app's left sidebar, built-in ones (pinned or not)
// and custom ones (a fragment and a name). Every view lives in its owner's partition, so another
// user's view and a missing one are the same 404; every change is told to the owner's queues only.
import { BadRequestError, ResourceNotFoundError } from '../errors';
import { sendEvent } from '../events/send';
import { strippedText } from '../models/message-content';
import type { User } from '../models/user';
import {
  isBuiltInNavigationView,
  MAX_NAVIGATION_VIEW_FRAGMENT_LENGTH,
  MAX_NAVIGATION_VIEW_NAME_LENGTH,
  MAX_NAVIGATION_VIEWS_PER_USER,
  toApiNavigationView,
  type ApiNavigationView,
  type NavigationView,
} from '../models/user-data';
import * as navigationViewsStore from '../store/navigation-views';
import { LostRaceError, retryLostRaces } from './retry';

/** A view's fragment and name as the parameters declare them: stripped, not blank, bounded. */
export const navigationViewFragment = strippedText(MAX_NAVIGATION_VIEW_FRAGMENT_LENGTH);
export const navigationViewName = strippedText(MAX_NAVIGATION_VIEW_NAME_LENGTH);

const alreadyExists = (): BadRequestError => new BadRequestError('Navigation view already exists.');
const builtInNamed = (): BadRequestError => new BadRequestError('Built-in views cannot have a custom name.');

/** The caller's view of this fragment, else 404 "Navigation view does not exist." (upstream's get_navigation_view). */
const accessNavigationView = async (user: User, fragment: string): Promise<NavigationView> => {
  const view = await navigationViewsStore.getNavigationView(user.id, fragment);
  if (!view) throw new ResourceNotFoundError('Navigation view does not exist.');
  return view;
};

/** Refuses a name another of the caller's views (or this one) already has, as upstream's check before each write. */
const checkNameFree = async (user: User, name: string | undefined): Promise<void> => {
  if (name !== undefined && (await navigationViewsStore.isNavigationViewNameTaken(user.id, name))) throw alreadyExists();
};

/** The caller's navigation views (GET /navigation_views; register reads the same list). */
export const listNavigationViews = async (user: User): Promise<ApiNavigationView[]> =>
  (await navigationViewsStore.listNavigationViewsOfUser(user.id)).map(toApiNavigationView);

/**
 * POST /navigation_views, with the parameters already validated. A built-in view may not have a
 * name and a custom one must; the fragment and the name must be new among the caller's views
 * ("Navigation view already exists."), and the caller may keep MAX_NAVIGATION_VIEWS_PER_USER views
 * (upstream has no bound). Writes the view, its name claim and the count in one transaction
 * (of two concurrent creates of one fragment or name, one gets the 400), then sends
 * `navigation_view` add to the caller's queues.
 */
export const checkAddNavigationView = async (
  user: User,
  request: { fragment: string; isPinned: boolean; name: string | undefined },
): Promise<void> => {
  if (isBuiltInNavigationView(request.fragment)) {
    if (request.name !== undefined) throw builtInNamed();
  } else if (request.name === undefined) {
    throw new BadRequestError('Custom views must have a valid name.');
  }
  const view: NavigationView = { userId: user.id, fragment: request.fragment, isPinned: request.isPinned, name: request.name ?? null };
  await retryLostRaces(async () => {
    if (await navigationViewsStore.getNavigationView(user.id, view.fragment)) throw alreadyExists();
    await checkNameFree(user, request.name);
    const written = await navigationViewsStore.createNavigationView(view, MAX_NAVIGATION_VIEWS_PER_USER);
    if (written === 'full') throw new BadRequestError(`You can have at most ${MAX_NAVIGATION_VIEWS_PER_USER} navigation views.`);
    if (written === 'lost') throw new LostRaceError();
  });
  await sendEvent(user.realmId, { type: 'navigation_view', op: 'add', navigation_view: toApiNavigationView(view) }, { users: [user.id] });
};

/**
 * PATCH /navigation_views/{fragment}: pins or unpins one of the caller's views and renames a
 * custom one. In upstream's order: a name for a built-in view is refused, then a name any of the
 * caller's views has (this one included: "Navigation view already exists."), then a missing view
 * (404). Sends `navigation_view` update with the fragment and what was sent, to the caller's
 * queues; with nothing sent it changes nothing and still sends the event with empty data, as
 * upstream's.
 */
export const checkUpdateNavigationView = async (
  user: User,
  fragment: string,
  changes: { isPinned: boolean | undefined; name: string | undefined },
): Promise<void> => {
  if (isBuiltInNavigationView(fragment) && changes.name !== undefined) throw builtInNamed();
  const { isPinned, name } = changes;
  await retryLostRaces(async () => {
    await checkNameFree(user, name);
    const view = await accessNavigationView(user, fragment);
    if (isPinned === undefined && name === undefined) return;
    if ((await navigationViewsStore.updateNavigationView(view, { isPinned, name })) === 'lost') throw new LostRaceError();
  });
  const data = { ...(name !== undefined ? { name } : {}), ...(isPinned !== undefined ? { is_pinned: isPinned } : {}) };
  await sendEvent(user.realmId, { type: 'navigation_view', op: 'update', fragment, data }, { users: [user.id] });
};

/**
 * DELETE /navigation_views/{fragment}: deletes one of the caller's views with its name claim and
 * its place in the count (of two concurrent deletes one gets the 404), then sends
 * `navigation_view` remove to the caller's queues.
 */
export const doRemoveNavigationView = async (user: User, fragment: string): Promise<void> => {
  await retryLostRaces(async () => {
    const view = await accessNavigationView(user, fragment);
    if ((await navigationViewsStore.deleteNavigationView(view)) === 'lost') throw new LostRaceError();
  });
  await sendEvent(user.realmId, { type: 'navigation_view', op: 'remove', fragment }, { users: [user.id] });
};
