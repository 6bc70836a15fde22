// A user's navigation views in the user partition: one item per view (keyed by its fragment), one
// claim per custom view's name (so two views never share a name), and the count that bounds them.
// Every change writes the view, its name claim and the count in one transaction.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { NavigationView } from '../models/user-data';
import { documentClient, tableName } from './client';
import { countStep, queryPrefix, sendTransaction, type Item, type TransactItem } from './common';
import { entityKeys, type Key } from './keys';
import { MAX_USER_OBJECTS } from './limits';

const toNavigationView = (item: Item): NavigationView => ({
  userId: Number(item.userId),
  fragment: String(item.fragment),
  isPinned: item.isPinned === true,
  name: typeof item.name === 'string' ? item.name : null,
});

const getConsistent = async (key: Key): Promise<Item | undefined> =>
  (await documentClient().send(new GetCommand({ TableName: tableName('main'), Key: key, ConsistentRead: true }))).Item as Item | undefined;

/** The user's navigation views (in the order of their fragments' hashes: upstream's list has no order either). */
export const listNavigationViewsOfUser = async (userId: number): Promise<NavigationView[]> => {
  const k = entityKeys.navigationViewsOfUser(userId);
  return (await queryPrefix('main', k.pk, k.skPrefix, { max: MAX_USER_OBJECTS })).map(toNavigationView);
};

/** The user's view of this fragment, or undefined (strongly consistent). */
export const getNavigationView = async (userId: number, fragment: string): Promise<NavigationView | undefined> => {
  const item = await getConsistent(entityKeys.navigationView(userId, fragment));
  return item ? toNavigationView(item) : undefined;
};

/** Whether one of the user's views has this name (strongly consistent). */
export const isNavigationViewNameTaken = async (userId: number, name: string): Promise<boolean> =>
  (await getConsistent(entityKeys.navigationViewName(userId, name))) !== undefined;

/** The item of a view as stored: a built-in view has no `name` attribute. */
const viewItem = (view: NavigationView): Item => ({
  ...entityKeys.navigationView(view.userId, view.fragment),
  userId: view.userId,
  fragment: view.fragment,
  isPinned: view.isPinned,
  ...(view.name !== null ? { name: view.name } : {}),
});

const claimName = (view: NavigationView, name: string): TransactItem => ({
  Put: {
    TableName: tableName('main'),
    Item: { ...entityKeys.navigationViewName(view.userId, name), userId: view.userId, fragment: view.fragment },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

const releaseName = (view: NavigationView, name: string): TransactItem => ({
  Delete: {
    TableName: tableName('main'),
    Key: entityKeys.navigationViewName(view.userId, name),
    ConditionExpression: 'fragment = :f',
    ExpressionAttributeValues: { ':f': view.fragment },
  },
});

const count = (userId: number, step: 1 | -1, max?: number): TransactItem => countStep(entityKeys.navigationViewCount(userId), step, max);

/**
 * A view write's outcome: written; refused because the user keeps `max` views already (create
 * only); or lost (a condition on the view or a name claim failed, or a concurrent transaction
 * came first: nothing was written, and the caller reads again).
 */
export type NavigationViewWrite = 'written' | 'full' | 'lost';

/**
 * Writes a new view, claims its name and counts it, in one transaction, refused if the fragment or
 * the name is taken or the user keeps `max` views (a missing count is none).
 */
export const createNavigationView = async (view: NavigationView, max: number): Promise<NavigationViewWrite> => {
  const loss = await sendTransaction([
    count(view.userId, 1, max),
    { Put: { TableName: tableName('main'), Item: viewItem(view), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(view.name !== null ? [claimName(view, view.name)] : []),
  ]);
  if (loss === undefined) return 'written';
  const [countReason, ...others] = loss.reasons;
  return loss.lost === 'condition' && countReason === 'ConditionalCheckFailed' && others.every((r) => r === 'None') ? 'full' : 'lost';
};

/**
 * Pins or unpins a view and renames it (moving its name claim), in one transaction; `view` is
 * the view as read. Lost if the view is gone, its name claim moved, or the new name is taken.
 */
export const updateNavigationView = async (
  view: NavigationView,
  changes: { isPinned?: boolean; name?: string },
): Promise<NavigationViewWrite> => {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (changes.isPinned !== undefined) {
    sets.push('isPinned = :p');
    values[':p'] = changes.isPinned;
  }
  if (changes.name !== undefined) {
    sets.push('#n = :n');
    values[':n'] = changes.name;
  }
  const rename =
    changes.name !== undefined ? [claimName(view, changes.name), ...(view.name !== null ? [releaseName(view, view.name)] : [])] : [];
  const loss = await sendTransaction([
    {
      Update: {
        TableName: tableName('main'),
        Key: entityKeys.navigationView(view.userId, view.fragment),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(changes.name !== undefined ? { ExpressionAttributeNames: { '#n': 'name' } } : {}),
        ExpressionAttributeValues: values,
      },
    },
    ...rename,
  ]);
  return loss === undefined ? 'written' : 'lost';
};

/** Deletes a view (as read), releases its name and uncounts it, together; lost if it is gone or was renamed meanwhile. */
export const deleteNavigationView = async (view: NavigationView): Promise<NavigationViewWrite> => {
  const loss = await sendTransaction([
    {
      Delete: {
        TableName: tableName('main'),
        Key: entityKeys.navigationView(view.userId, view.fragment),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    count(view.userId, -1),
    ...(view.name !== null ? [releaseName(view, view.name)] : []),
  ]);
  return loss === undefined ? 'written' : 'lost';
};
