import { handler as createView } from '../../../functions/navigation-views/create';
import { handler as deleteView } from '../../../functions/navigation-views/delete';
import { handler as listViews } from '../../../functions/navigation-views/list';
import { handler as editView } from '../../../functions/navigation-views/update';
import { MAX_NAVIGATION_VIEWS_PER_USER } from '../../../lib/models/user-data';
import * as navigationViewsStore from '../../../lib/store/navigation-views';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const HAMLET = 10;
const IAGO = 11;
const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const othello = 'othello@zulip.com';

const list = (as: string) => call(listViews, { method: 'GET', path: '/navigation_views', as });
const create = (as: string, params: Record<string, unknown>) => call(createView, { method: 'POST', path: '/navigation_views', as, params });
const edit = (as: string, fragment: string, params: Record<string, unknown>) =>
  call(editView, { method: 'PATCH', path: `/navigation_views/${fragment}`, pathParameters: { fragment }, as, params });
const del = (as: string, fragment: string) =>
  call(deleteView, { method: 'DELETE', path: `/navigation_views/${fragment}`, pathParameters: { fragment }, as });

const viewsOf = (userId: number) => navigationViewsStore.listNavigationViewsOfUser(userId);
const byFragment = (a: { fragment: string }, b: { fragment: string }) => a.fragment.localeCompare(b.fragment);

describe('GET /navigation_views', () => {
  it("returns the caller's views, with a null name for built-in ones", async () => {
    const body = expectSuccess(await list(iago));
    expect([...body.navigation_views].sort(byFragment)).toEqual([
      { fragment: 'inbox', is_pinned: false, name: null },
      { fragment: 'narrow/channel/3-Verona', is_pinned: true, name: 'Verona' },
    ]);
  });

  it('returns an empty list for a user without views', async () => {
    expect(expectSuccess(await list('ZOE@zulip.com')).navigation_views).toEqual([]);
  });
});

describe('POST /navigation_views', () => {
  it("configures a built-in view and sends a navigation_view add event to the owner's queues only", async () => {
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['navigation_view'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expect(expectSuccess(await create(hamlet, { fragment: 'recent', is_pinned: 'true' }))).toEqual({ result: 'success', msg: '' });
    expect(await navigationViewsStore.getNavigationView(HAMLET, 'recent')).toEqual({
      userId: HAMLET,
      fragment: 'recent',
      isPinned: true,
      name: null,
    });
    expect(await hamletQueue.drain()).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: true, name: null } },
    ]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('adds a custom view with its name, both stripped, and lists it', async () => {
    expectSuccess(await create(hamlet, { fragment: '  narrow/is/alerted ', is_pinned: 'false', name: ' Alert Words\n' }));
    expect(expectSuccess(await list(hamlet)).navigation_views).toContainEqual({
      fragment: 'narrow/is/alerted',
      is_pinned: false,
      name: 'Alert Words',
    });
  });

  it.each([
    ['a name for a built-in view', { fragment: 'feed', is_pinned: 'true', name: 'foo' }, 'Built-in views cannot have a custom name.'],
    ['a custom view without a name', { fragment: 'narrow/view', is_pinned: 'true' }, 'Custom views must have a valid name.'],
    ['an empty fragment', { fragment: '', is_pinned: 'true', name: 'foo' }, 'fragment cannot be blank'],
    ['a fragment of only whitespace', { fragment: ' \t ', is_pinned: 'true' }, 'fragment cannot be blank'],
    ['a blank name', { fragment: 'narrow/view', is_pinned: 'true', name: '  ' }, 'name cannot be blank'],
    [
      'a fragment over 1000 characters',
      { fragment: 'a'.repeat(1001), is_pinned: 'true', name: 'x' },
      'fragment is too long (limit: 1000 characters)',
    ],
    [
      'a name over 100 characters',
      { fragment: 'narrow/view', is_pinned: 'true', name: 'n'.repeat(101) },
      'name is too long (limit: 100 characters)',
    ],
    ['is_pinned that is not a boolean', { fragment: 'inbox', is_pinned: '"yes"' }, 'is_pinned is not a boolean'],
    ['no is_pinned', { fragment: 'inbox' }, "Missing 'is_pinned' argument", 'REQUEST_VARIABLE_MISSING'],
    ['no fragment', { is_pinned: 'true' }, "Missing 'fragment' argument", 'REQUEST_VARIABLE_MISSING'],
  ])('refuses %s, and adds nothing and sends no event', async (_what, params, msg, code = 'BAD_REQUEST') => {
    const before = await viewsOf(IAGO);
    const queue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expectError(await create(iago, params), msg, 400, code);
    expect(await viewsOf(IAGO)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['a fragment the caller has a view of', { fragment: 'inbox', is_pinned: 'true' }],
    ['a fragment the caller has a custom view of', { fragment: 'narrow/channel/3-Verona', is_pinned: 'true', name: 'Other' }],
    ['a name another of the caller’s views has', { fragment: 'narrow/is/attachment', is_pinned: 'true', name: 'Verona' }],
  ])('refuses %s with "Navigation view already exists." and changes nothing', async (_what, params) => {
    const before = await viewsOf(IAGO);
    expectError(await create(iago, params), 'Navigation view already exists.');
    expect(await viewsOf(IAGO)).toEqual(before);
  });

  it("takes a fragment and a name another user's views have", async () => {
    expectSuccess(await create(othello, { fragment: 'narrow/channel/3-Verona', is_pinned: 'true', name: 'Verona' }));
    expect(await navigationViewsStore.getNavigationView(IAGO, 'narrow/channel/3-Verona')).toMatchObject({ name: 'Verona', isPinned: true });
  });

  it('lets only one of two concurrent creates of one fragment, or of one name, succeed', async () => {
    const sameFragment = await Promise.all(
      [1, 2].map((i) => create(hamlet, { fragment: 'narrow/is/dm', is_pinned: 'true', name: `DMs ${i}` })),
    );
    expect(sameFragment.map((r) => r.status).sort()).toEqual([200, 400]);
    const sameName = await Promise.all(
      [1, 2].map((i) => create(hamlet, { fragment: `narrow/is/x${i}`, is_pinned: 'true', name: 'Twice' })),
    );
    expect(sameName.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await viewsOf(HAMLET)).filter((v) => v.name === 'Twice')).toHaveLength(1);
  });

  it(`refuses a view past ${MAX_NAVIGATION_VIEWS_PER_USER} per user, and takes one again after a delete`, async () => {
    const email = 'prospero@zulip.com';
    for (let i = 0; i < MAX_NAVIGATION_VIEWS_PER_USER; i += 1) {
      expectSuccess(await create(email, { fragment: `narrow/search/${i}`, is_pinned: 'false', name: `Search ${i}` }));
    }
    expectError(
      await create(email, { fragment: 'narrow/search/more', is_pinned: 'false', name: 'More' }),
      `You can have at most ${MAX_NAVIGATION_VIEWS_PER_USER} navigation views.`,
    );
    expectSuccess(await del(email, 'narrow/search/0'));
    expectSuccess(await create(email, { fragment: 'narrow/search/more', is_pinned: 'false', name: 'More' }));
    expect(expectSuccess(await list(email)).navigation_views).toHaveLength(MAX_NAVIGATION_VIEWS_PER_USER);
  });
});

describe('PATCH /navigation_views/{fragment}', () => {
  it("unpins a built-in view and sends a navigation_view update with only what was sent, to the owner's queues only", async () => {
    expectSuccess(await create(hamlet, { fragment: 'inbox', is_pinned: 'true' }));
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['navigation_view'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expectSuccess(await edit(hamlet, 'inbox', { is_pinned: 'false' }));
    expect(await navigationViewsStore.getNavigationView(HAMLET, 'inbox')).toMatchObject({ isPinned: false, name: null });
    expect(await hamletQueue.drain()).toEqual([{ type: 'navigation_view', op: 'update', fragment: 'inbox', data: { is_pinned: false } }]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('renames a custom view whose fragment has slashes, and frees its old name', async () => {
    expectSuccess(await create(hamlet, { fragment: 'narrow/is/followed', is_pinned: 'true', name: 'Followed' }));
    const queue = await openQueue(hamlet, { eventTypes: ['navigation_view'] });
    expectSuccess(await edit(hamlet, 'narrow/is/followed', { is_pinned: 'false', name: ' Watched Phrases ' }));
    expect(await navigationViewsStore.getNavigationView(HAMLET, 'narrow/is/followed')).toMatchObject({
      isPinned: false,
      name: 'Watched Phrases',
    });
    expect(await queue.drain()).toEqual([
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/followed', data: { name: 'Watched Phrases', is_pinned: false } },
    ]);
    expectSuccess(await create(hamlet, { fragment: 'narrow/is/resolved', is_pinned: 'true', name: 'Followed' }));
  });

  it('refuses a name for a built-in view before looking it up, and changes nothing', async () => {
    const before = await viewsOf(IAGO);
    expectError(await edit(iago, 'inbox', { is_pinned: 'true', name: 'Inbox View' }), 'Built-in views cannot have a custom name.');
    expectError(await edit(iago, 'feed', { name: 'Feed' }), 'Built-in views cannot have a custom name.');
    expect(await viewsOf(IAGO)).toEqual(before);
  });

  it("refuses a name one of the caller's views has, its own included, and changes nothing", async () => {
    expectSuccess(await create(iago, { fragment: 'narrow/is/attachment', is_pinned: 'true', name: 'Attachments' }));
    const before = await viewsOf(IAGO);
    const queue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expectError(await edit(iago, 'narrow/is/attachment', { is_pinned: 'false', name: 'Verona' }), 'Navigation view already exists.');
    expectError(await edit(iago, 'narrow/is/attachment', { name: 'Attachments' }), 'Navigation view already exists.');
    expect(await viewsOf(IAGO)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ['a view that does not exist', iago, 'nonexistent'],
    ["another user's view", othello, 'narrow/is/attachment'],
  ])('returns 404 "Navigation view does not exist." for %s', async (_what, as, fragment) => {
    expectError(await edit(as, fragment, { is_pinned: 'false', name: 'New view' }), 'Navigation view does not exist.', 404);
    expect(await navigationViewsStore.getNavigationView(IAGO, 'narrow/is/attachment')).toMatchObject({ isPinned: true });
  });

  it('succeeds with nothing to change and sends an update with empty data, as upstream', async () => {
    const before = await viewsOf(IAGO);
    const queue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expectSuccess(await edit(iago, 'inbox', {}));
    expect(await viewsOf(IAGO)).toEqual(before);
    expect(await queue.drain()).toEqual([{ type: 'navigation_view', op: 'update', fragment: 'inbox', data: {} }]);
  });

  it('lets only one of two concurrent renames to one name succeed', async () => {
    for (const f of ['narrow/is/r1', 'narrow/is/r2']) expectSuccess(await create(hamlet, { fragment: f, is_pinned: 'true', name: f }));
    const results = await Promise.all(['narrow/is/r1', 'narrow/is/r2'].map((f) => edit(hamlet, f, { name: 'Same' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await viewsOf(HAMLET)).filter((v) => v.name === 'Same')).toHaveLength(1);
  });
});

describe('DELETE /navigation_views/{fragment}', () => {
  it("removes the view, frees its name, and sends a navigation_view remove to the owner's queues only", async () => {
    expectSuccess(await create(hamlet, { fragment: 'narrow/is/unread', is_pinned: 'true', name: 'Unread' }));
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['navigation_view'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['navigation_view'] });
    expectSuccess(await del(hamlet, 'narrow/is/unread'));
    expect(await navigationViewsStore.getNavigationView(HAMLET, 'narrow/is/unread')).toBeUndefined();
    expect(await hamletQueue.drain()).toEqual([{ type: 'navigation_view', op: 'remove', fragment: 'narrow/is/unread' }]);
    expect(await iagoQueue.drain()).toEqual([]);
    expectSuccess(await create(hamlet, { fragment: 'narrow/is/private', is_pinned: 'true', name: 'Unread' }));
  });

  it('returns 404 on a second delete, and sends no event for it', async () => {
    expectSuccess(await create(hamlet, { fragment: 'drafts', is_pinned: 'true' }));
    expectSuccess(await del(hamlet, 'drafts'));
    const queue = await openQueue(hamlet, { eventTypes: ['navigation_view'] });
    expectError(await del(hamlet, 'drafts'), 'Navigation view does not exist.', 404);
    expect(await queue.drain()).toEqual([]);
  });

  it("returns 404 for another user's view and keeps it", async () => {
    const before = await viewsOf(IAGO);
    expectError(await del(othello, 'inbox'), 'Navigation view does not exist.', 404);
    expect(await viewsOf(IAGO)).toEqual(before);
  });

  it('lets only one of two concurrent deletes succeed', async () => {
    expectSuccess(await create(hamlet, { fragment: 'narrow/is/starred', is_pinned: 'true' }));
    const results = await Promise.all([del(hamlet, 'narrow/is/starred'), del(hamlet, 'narrow/is/starred')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });
});
