import { handler as createSnippet } from '../../../functions/saved-snippets/create';
import { handler as deleteSnippet } from '../../../functions/saved-snippets/delete';
import { handler as listSnippets } from '../../../functions/saved-snippets/list';
import { handler as editSnippet } from '../../../functions/saved-snippets/update';
import { MAX_SAVED_SNIPPETS_PER_USER } from '../../../lib/models/user-data';
import * as userDataStore from '../../../lib/store/user-data';
import { call, expectError, expectSuccess, type Encoding } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const IAGO = 11;
const HAMLET = 10;
const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const cordelia = 'cordelia@zulip.com';

const list = (as: string) => call(listSnippets, { method: 'GET', path: '/saved_snippets', as });
const create = (as: string, params: Record<string, unknown>, encoding?: Encoding) =>
  call(createSnippet, { method: 'POST', path: '/saved_snippets', as, params, encoding });
const edit = (as: string, id: number | string, params: Record<string, unknown>) =>
  call(editSnippet, {
    method: 'PATCH',
    path: `/saved_snippets/${id}`,
    pathParameters: { saved_snippet_id: String(id) },
    as,
    params,
  });
const del = (as: string, id: number | string) =>
  call(deleteSnippet, { method: 'DELETE', path: `/saved_snippets/${id}`, pathParameters: { saved_snippet_id: String(id) }, as });

/** A new snippet of this user, through the API; its id. */
const newSnippet = async (as: string, title = 'Welcome message', content = '**Welcome** to the organization.') =>
  expectSuccess(await create(as, { title, content })).saved_snippet_id as number;

describe('GET /saved_snippets', () => {
  it("returns the caller's snippets in id order with their creation time", async () => {
    const body = expectSuccess(await list(iago));
    expect(body.saved_snippets).toEqual([{ id: 1, title: 'Greeting', content: 'Hello **everyone**!', date_created: 1700006000 }]);
  });

  it('returns an empty list for a user without snippets', async () => {
    expect(expectSuccess(await list('othello@zulip.com')).saved_snippets).toEqual([]);
  });
});

describe('POST /saved_snippets', () => {
  it('saves the snippet, stripped, and answers its new id', async () => {
    const before = Math.floor(Date.now() / 1000);
    const id = await newSnippet(hamlet, '  Standup  ', '\n  What did you do yesterday?  \n');
    expect(id).toBeGreaterThan(1);
    const stored = await userDataStore.getSavedSnippet(HAMLET, id);
    expect(stored).toMatchObject({ id, userId: HAMLET, title: 'Standup', content: 'What did you do yesterday?' });
    expect(stored!.dateCreated).toBeGreaterThanOrEqual(before);
    expect(expectSuccess(await list(hamlet)).saved_snippets).toContainEqual({
      id,
      title: 'Standup',
      content: 'What did you do yesterday?',
      date_created: stored!.dateCreated,
    });
  });

  it('takes title and content as raw strings, as the mobile app sends them (form-encoded or multipart)', async () => {
    const id = await newSnippet(hamlet, '"quoted"', '{"not": "json"}');
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toMatchObject({ title: '"quoted"', content: '{"not": "json"}' });
    const multipart = expectSuccess(await create(hamlet, { title: 'Multipart', content: 'sent as multipart' }, 'multipart'));
    expect(await userDataStore.getSavedSnippet(HAMLET, multipart.saved_snippet_id)).toMatchObject({ title: 'Multipart' });
  });

  it('counts the title limit in characters, not bytes', async () => {
    const id = await newSnippet(hamlet, 'é'.repeat(60), '🙂'.repeat(10_000));
    expect((await userDataStore.getSavedSnippet(HAMLET, id))!.title).toBe('é'.repeat(60));
  });

  it.each([
    ['a title over 60 characters', { title: 'A'.repeat(120), content: 'x' }, 'title is too long (limit: 60 characters)'],
    ['content over 10000 characters', { title: 'x', content: 'A'.repeat(10_001) }, 'content is too long (limit: 10000 characters)'],
    ['an empty title', { title: '', content: 'x' }, 'title cannot be blank'],
    ['a title of only whitespace', { title: ' \n\t ', content: 'x' }, 'title cannot be blank'],
    ['content of only whitespace', { title: 'x', content: '   ' }, 'content cannot be blank'],
    ['no title', { content: 'x' }, "Missing 'title' argument", 'REQUEST_VARIABLE_MISSING'],
    ['no content', { title: 'x' }, "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING'],
  ])('refuses %s and saves nothing', async (_what, params, msg, code = 'BAD_REQUEST') => {
    const before = await userDataStore.listSavedSnippetsOfUser(IAGO);
    const queue = await openQueue(iago, { eventTypes: ['saved_snippets'] });
    expectError(await create(iago, params), msg, 400, code);
    expect(await userDataStore.listSavedSnippetsOfUser(IAGO)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it("sends a saved_snippets add event to the owner's queues only", async () => {
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['saved_snippets'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['saved_snippets'] });
    const id = await newSnippet(hamlet, 'Event', 'event content');
    const { dateCreated } = (await userDataStore.getSavedSnippet(HAMLET, id))!;
    expect(await hamletQueue.drain()).toEqual([
      { type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Event', content: 'event content', date_created: dateCreated } },
    ]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it(`refuses a snippet past ${MAX_SAVED_SNIPPETS_PER_USER} per user, and takes one again after a delete`, async () => {
    const email = 'prospero@zulip.com';
    const ids: number[] = [];
    for (let i = 0; i < MAX_SAVED_SNIPPETS_PER_USER; i += 1) ids.push(await newSnippet(email, `t${i}`, `c${i}`));
    expectError(
      await create(email, { title: 'one more', content: 'x' }),
      `You can have at most ${MAX_SAVED_SNIPPETS_PER_USER} saved snippets.`,
      400,
    );
    expect(expectSuccess(await list(email)).saved_snippets).toHaveLength(MAX_SAVED_SNIPPETS_PER_USER);
    expectSuccess(await del(email, ids[0]));
    await newSnippet(email, 'one more', 'x');
    expect(expectSuccess(await list(email)).saved_snippets).toHaveLength(MAX_SAVED_SNIPPETS_PER_USER);
  });

  it('admits only the free places to concurrent creates at the bound', async () => {
    const email = 'desdemona@zulip.com';
    for (let i = 0; i < MAX_SAVED_SNIPPETS_PER_USER - 2; i += 1) await newSnippet(email, `t${i}`, `c${i}`);
    const results = await Promise.all([1, 2, 3, 4].map((i) => create(email, { title: `race ${i}`, content: 'x' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(expectSuccess(await list(email)).saved_snippets).toHaveLength(MAX_SAVED_SNIPPETS_PER_USER);
  });
});

describe('PATCH /saved_snippets/{saved_snippet_id}', () => {
  it('changes only the title when only the title is sent', async () => {
    const id = await newSnippet(hamlet);
    expectSuccess(await edit(hamlet, id, { title: '  New title ' }));
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toMatchObject({
      title: 'New title',
      content: '**Welcome** to the organization.',
    });
  });

  it('changes only the content when only the content is sent, keeping the creation time', async () => {
    const id = await newSnippet(hamlet);
    const before = (await userDataStore.getSavedSnippet(HAMLET, id))!;
    expectSuccess(await edit(hamlet, id, { content: 'New content' }));
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toEqual({ ...before, content: 'New content' });
  });

  it("sends a saved_snippets update event with the whole snippet to the owner's queues only", async () => {
    const id = await newSnippet(hamlet);
    const { dateCreated } = (await userDataStore.getSavedSnippet(HAMLET, id))!;
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['saved_snippets'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['saved_snippets'] });
    expectSuccess(await edit(hamlet, id, { title: 'Example', content: 'Changed' }));
    expect(await hamletQueue.drain()).toEqual([
      { type: 'saved_snippets', op: 'update', saved_snippet: { id, title: 'Example', content: 'Changed', date_created: dateCreated } },
    ]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('succeeds without a change or an event when neither title nor content is sent (upstream: no-op requests succeed)', async () => {
    const id = await newSnippet(hamlet);
    const before = await userDataStore.getSavedSnippet(HAMLET, id);
    const queue = await openQueue(hamlet, { eventTypes: ['saved_snippets'] });
    expectSuccess(await edit(hamlet, id, {}));
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toEqual(before);
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    ["another user's snippet", 1],
    ['a snippet that does not exist', 99_999],
  ])('returns 404 "Saved snippet does not exist." for %s and changes nothing', async (_what, id) => {
    const iagos = await userDataStore.getSavedSnippet(IAGO, 1);
    const queue = await openQueue(hamlet, { eventTypes: ['saved_snippets'] });
    expectError(await edit(hamlet, id, { content: 'New content' }), 'Saved snippet does not exist.', 404);
    expect(await userDataStore.getSavedSnippet(IAGO, 1)).toEqual(iagos);
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toBeUndefined();
    expect(await queue.drain()).toEqual([]);
  });

  it.each([
    [{ title: '' }, 'title cannot be blank'],
    [{ content: '  ' }, 'content cannot be blank'],
    [{ title: 'B'.repeat(61) }, 'title is too long (limit: 60 characters)'],
    [{ content: 'B'.repeat(10_001) }, 'content is too long (limit: 10000 characters)'],
  ])('refuses %j and changes nothing', async (params, msg) => {
    const id = await newSnippet(hamlet);
    const before = await userDataStore.getSavedSnippet(HAMLET, id);
    expectError(await edit(hamlet, id, params), msg, 400);
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toEqual(before);
  });
});

describe('DELETE /saved_snippets/{saved_snippet_id}', () => {
  it('deletes the snippet, and a second delete is a 404', async () => {
    const id = await newSnippet(hamlet);
    expectSuccess(await del(hamlet, id));
    expect(await userDataStore.getSavedSnippet(HAMLET, id)).toBeUndefined();
    expect(expectSuccess(await list(hamlet)).saved_snippets.map((s: { id: number }) => s.id)).not.toContain(id);
    expectError(await del(hamlet, id), 'Saved snippet does not exist.', 404);
  });

  it("returns 404 for another user's snippet and keeps it", async () => {
    const before = await userDataStore.getSavedSnippet(IAGO, 1);
    expectError(await del(cordelia, 1), 'Saved snippet does not exist.', 404);
    expect(await userDataStore.getSavedSnippet(IAGO, 1)).toEqual(before);
  });

  it('lets only one of two concurrent deletes succeed', async () => {
    const id = await newSnippet(hamlet);
    const results = await Promise.all([del(hamlet, id), del(hamlet, id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });

  it("sends a saved_snippets remove event to the owner's queues only, and none for a failed delete", async () => {
    const id = await newSnippet(hamlet);
    const hamletQueue = await openQueue(hamlet, { eventTypes: ['saved_snippets'] });
    const iagoQueue = await openQueue(iago, { eventTypes: ['saved_snippets'] });
    expectSuccess(await del(hamlet, id));
    expectError(await del(hamlet, id), 'Saved snippet does not exist.', 404);
    expect(await hamletQueue.drain()).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }]);
    expect(await iagoQueue.drain()).toEqual([]);
  });

  it('answers 404 for a path id that is not a number', async () => {
    expect((await del(hamlet, 'abc')).status).toBe(404);
  });
});
