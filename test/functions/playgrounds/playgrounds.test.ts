// POST /realm/playgrounds and DELETE /realm/playgrounds/{playground_id}, as upstream's
// test_realm_playgrounds.py describes them, with register's realm_playgrounds and the event.
import { handler as register } from '../../../functions/events/register';
import { handler as create } from '../../../functions/playgrounds/create';
import { handler as remove } from '../../../functions/playgrounds/delete';
import * as playgroundsStore from '../../../lib/store/playgrounds';
import { atPath, call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';

const PYTHON = { name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com{code}' };

const add = (as: string, params: Record<string, unknown>) => call(create, { method: 'POST', path: '/realm/playgrounds', as, params });
const del = (as: string, id: number | string) =>
  call(remove, { ...atPath('DELETE', '/realm/playgrounds/{playground_id}', { playground_id: id }), as });
const stored = (realmId = 2) => playgroundsStore.listPlaygrounds(realmId, { consistent: true });
const registered = async (as: string) =>
  expectSuccess(await call(register, { method: 'POST', path: '/register', as, params: { fetch_event_types: ['realm_playgrounds'] } }))
    .realm_playgrounds;

// The file's tables are shared by its tests: each starts with no playgrounds.
afterEach(async () => {
  for (const realmId of [2, 3]) for (const p of await stored(realmId)) await playgroundsStore.deletePlayground(p);
});

describe('POST /realm/playgrounds', () => {
  it('adds a playground, trimmed, returns its id, and sends the whole list to everyone in the organization', async () => {
    const guest = await openQueue('polonius@zulip.com', { eventTypes: ['realm_playgrounds'] });
    const elsewhere = await openQueue('king@lear.org');
    const first = expectSuccess(await add('iago@zulip.com', PYTHON)).id as number;
    const { id } = expectSuccess(
      await add('iago@zulip.com', {
        name: ' Python playground 2 ',
        pygments_language: ' Python ',
        url_template: ' https://python2.example.com{code}\n',
      }),
    );
    const list = [
      { id: first, ...PYTHON },
      { id, name: 'Python playground 2', pygments_language: 'Python', url_template: 'https://python2.example.com{code}' },
    ];
    expect(await registered('hamlet@zulip.com')).toEqual(list);
    expect(await guest.drain()).toEqual([
      { type: 'realm_playgrounds', realm_playgrounds: [list[0]] },
      { type: 'realm_playgrounds', realm_playgrounds: list },
    ]);
    expect(await elsewhere.drain()).toEqual([]);
    expect(await registered('king@lear.org')).toEqual([]);
  });

  it('refuses a second playground of the same language and name, keeping the first', async () => {
    const { id } = expectSuccess(await add('iago@zulip.com', PYTHON));
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_playgrounds'] });
    const result = await add('desdemona@zulip.com', { ...PYTHON, url_template: 'https://other.example.com{code}' });
    expectError(result, 'Realm playground with this Realm, Pygments language and Name already exists.');
    expect(result.body.errors).toEqual({ __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] });
    expect((await stored()).map((p) => [p.id, p.urlTemplate])).toEqual([[id, PYTHON.url_template]]);
    expect(await queue.drain()).toEqual([]);
  });

  it('lets only one of two racing requests add the same playground', async () => {
    const results = await Promise.all([add('iago@zulip.com', PYTHON), add('desdemona@zulip.com', PYTHON)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await stored()).toHaveLength(1);
  });

  it.each([
    ['a$b$c', 'https://template.com{code}', 'Invalid characters in pygments language', undefined],
    [
      'a b',
      'https://template.com{code}',
      'Invalid characters in pygments language',
      { pygments_language: ['Invalid characters in pygments language'] },
    ],
    ['x'.repeat(41), 'https://template.com{code}', 'pygments_language is too long (limit: 40 characters)', undefined],
    ['Python', 'https://template.com{?test,code}', '"code" should be the only variable present in the URL template', undefined],
    ['Python', 'https://template.com?test={test', 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
    ['Python', 'https://template.com{?test}', 'Missing the required variable "code" in the URL template', undefined],
    ['  ', 'https://template.com{code}', 'This field cannot be blank.', { pygments_language: ['This field cannot be blank.'] }],
    ['Python', ' ', 'This field cannot be blank.', { url_template: ['This field cannot be blank.'] }],
  ])('refuses the language %j with the template %j: %s, adding nothing', async (language, template, message, errors) => {
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_playgrounds'] });
    const result = await add('iago@zulip.com', { name: 'Bad', pygments_language: language, url_template: template });
    expectError(result, message);
    if (errors) expect(result.body.errors).toEqual(errors);
    expect(await stored()).toEqual([]);
    expect(await queue.drain()).toEqual([]);
  });

  it('refuses a blank name', async () => {
    const result = await add('iago@zulip.com', { ...PYTHON, name: ' ' });
    expectError(result, 'This field cannot be blank.');
    expect(result.body.errors).toEqual({ name: ['This field cannot be blank.'] });
  });

  it('needs every parameter', async () => {
    expectError(await add('iago@zulip.com', { pygments_language: 'Python' }), "Missing 'name' argument", 400, 'REQUEST_VARIABLE_MISSING');
    expectError(
      await add('iago@zulip.com', { name: 'x', pygments_language: 'Python' }),
      "Missing 'url_template' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('is for administrators, refused before the parameters are read', async () => {
    expectError(await add('hamlet@zulip.com', {}), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expectError(await add('polonius@zulip.com', PYTHON), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toEqual([]);
  });
});

describe('DELETE /realm/playgrounds/{playground_id}', () => {
  it('removes a playground and sends the list without it; another id or a second delete is an invalid playground', async () => {
    const { id } = expectSuccess(await add('iago@zulip.com', PYTHON));
    const { id: kept } = expectSuccess(await add('iago@zulip.com', { ...PYTHON, name: 'Kept' }));
    const queue = await openQueue('hamlet@zulip.com', { eventTypes: ['realm_playgrounds'] });
    expectError(await del('iago@zulip.com', kept + 1), 'Invalid playground');
    expectSuccess(await del('iago@zulip.com', id));
    expect(await queue.drain()).toEqual([{ type: 'realm_playgrounds', realm_playgrounds: [{ id: kept, ...PYTHON, name: 'Kept' }] }]);
    expectError(await del('iago@zulip.com', id), 'Invalid playground');
    // Its language and name are free again.
    expectSuccess(await add('iago@zulip.com', PYTHON));
  });

  it("answers another organization's playground as invalid, and refuses non-administrators first", async () => {
    const { id } = expectSuccess(await add('iago@zulip.com', PYTHON));
    expectError(await del('king@lear.org', id), 'Invalid playground');
    expectError(await del('hamlet@zulip.com', 1), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect(await stored()).toHaveLength(1);
  });

  it('lets only one of two racing deletes succeed', async () => {
    const { id } = expectSuccess(await add('iago@zulip.com', PYTHON));
    const results = await Promise.all([del('iago@zulip.com', id), del('desdemona@zulip.com', id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await stored()).toEqual([]);
  });
});
