import { handler as update } from '../../../functions/linkifiers/update';
import { handler as remove } from '../../../functions/linkifiers/delete';
import { handler as list } from '../../../functions/linkifiers/list';
import * as linkifiersStore from '../../../lib/store/linkifiers';
import { call, expectError, expectSuccess } from '../../helpers/api';
import { openQueue } from '../../helpers/events';
import { addLinkifier, listIds } from './helpers';

const patch = (as: string, id: number | string, params: Record<string, unknown>) =>
  call(update, {
    method: 'PATCH',
    path: `/realm/filters/${id}`,
    routeKey: 'PATCH /realm/filters/{filter_id}',
    pathParameters: { filter_id: String(id) },
    as,
    params,
  });
const del = (as: string, id: number | string) =>
  call(remove, {
    method: 'DELETE',
    path: `/realm/filters/${id}`,
    routeKey: 'DELETE /realm/filters/{filter_id}',
    pathParameters: { filter_id: String(id) },
    as,
  });
const stored = async (realmId = 2) => (await linkifiersStore.readLinkifierList(realmId, { consistent: true })).linkifiers;

describe('GET /realm/linkifiers', () => {
  it("lists the organization's linkifiers in order, to any user", async () => {
    const body = expectSuccess(await call(list, { method: 'GET', path: '/realm/linkifiers', as: 'polonius@zulip.com' }));
    expect(body.linkifiers).toEqual([
      { pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-desktop/pull/{id}', id: 1 },
      { pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-mobile/pull/{id}', id: 2 },
      { pattern: 'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/{repo}/pull/{id}', id: 3 },
    ]);
  });
});

describe('POST /realm/filters', () => {
  it('creates a linkifier, trimmed, and returns its id', async () => {
    const body = expectSuccess(
      await addLinkifier('iago@zulip.com', '  ZUC-(?P<id>\\d+) ', ' https://realm.com/my_realm_filter/#hashtag/{id}\n'),
    );
    const created = (await stored()).find((l) => l.id === body.id);
    expect(created).toMatchObject({
      pattern: 'ZUC-(?P<id>\\d+)',
      urlTemplate: 'https://realm.com/my_realm_filter/#hashtag/{id}',
      order: 3,
    });
  });

  it.each([
    [
      '',
      'https://realm.com/my_realm_filter/{id}',
      'This field cannot be blank.',
      { pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] },
    ],
    ['(foo', 'https://realm.com/{id}', 'Bad regular expression: missing ): (foo', { __all__: ['Bad regular expression: missing ): (foo'] }],
    [
      'ZUL-(?P<id>\\d????)',
      'https://realm.com/{id}',
      'Bad regular expression: bad repetition operator: ????',
      { __all__: ['Bad regular expression: bad repetition operator: ????'] },
    ],
    [
      'ZUL-(?P<id>\\d+)',
      '$fgfg',
      "Group 'id' in linkifier pattern is not present in URL template.",
      { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] },
    ],
    [
      'ZUL-(?P<id>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      "Group 'hello' in URL template is not present in linkifier pattern.",
      { __all__: ["Group 'hello' in URL template is not present in linkifier pattern."] },
    ],
    [
      'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)-(?P<world>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      "Group 'id' in linkifier pattern is not present in URL template.",
      { __all__: ["Group 'id' in linkifier pattern is not present in URL template."] },
    ],
    ['ZUL-(?P<id>\\d+)', 'https://realm.com/{id', 'Invalid URL template.', { url_template: ['Invalid URL template.'] }],
    [
      '#D(?P<id>[0-9]{2,8})',
      'https://example.com/{id}',
      'Realm filter with this Realm and Pattern already exists.',
      { __all__: ['Realm filter with this Realm and Pattern already exists.'] },
    ],
  ])('refuses pattern %j with template %j: %s', async (pattern, template, msg, errors) => {
    const before = await stored();
    const result = await addLinkifier('iago@zulip.com', pattern, template);
    expectError(result, msg);
    expect(result.body.errors).toEqual(errors);
    expect(await stored()).toEqual(before);
  });

  // Python's re runs these; RE2, which upstream compiles linkifiers with, does not.
  it.each([
    ['ZUL-(?P<id>\\d+)(?=x)', 'Bad regular expression: invalid perl operator: (?='],
    ['(?P<id>\\d+)-\\1', 'Bad regular expression: invalid escape sequence: \\1'],
    ['(?<!x)ZUL-(?P<id>\\d+)', 'Bad regular expression: invalid named capture group: (?<!x)ZUL-(?P<id>'],
    ['*(?P<id>\\d+)', 'Bad regular expression: no argument for repetition operator: *'],
  ])('refuses %j, which RE2 cannot run, with RE2’s message and stores nothing', async (pattern, msg) => {
    const before = await stored();
    const result = await addLinkifier('iago@zulip.com', pattern, 'https://realm.com/{id}');
    expectError(result, msg);
    expect(result.body.errors).toEqual({ __all__: [msg] });
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_-]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issue/{id}'],
    [
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    ],
    ['!(?P<id>[0-9]+)', 'https://realm.com/index.pl?Action=AgentTicketZoom;TicketNumber={id}'],
    ['ZUL-URL-(?P<id>\\d+)', 'https://example.com/%ba/{id}'],
    ['3#123', 'https://example.com'],
    // RE2 allows a name twice (Python's re does not).
    ['(?P<id>ABC-\\d+)|(?P<id>XYZ-\\d+)', 'https://example.com/{id}'],
  ])('accepts pattern %j with template %j', async (pattern, template) => {
    expectSuccess(await addLinkifier('iago@zulip.com', pattern, template));
  });

  it('refuses a member with "Must be an organization administrator"', async () => {
    expectError(
      await addLinkifier('hamlet@zulip.com', 'x-(?P<id>\\d+)', 'https://x/{id}'),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
  });

  it('requires both parameters', async () => {
    const { handler: create } = await import('../../../functions/linkifiers/create');
    expectError(
      await call(create, { method: 'POST', path: '/realm/filters', as: 'iago@zulip.com', params: { pattern: 'x' } }),
      "Missing 'url_template' argument",
      400,
      'REQUEST_VARIABLE_MISSING',
    );
  });

  it('sends the new list to linkifier_url_template queues', async () => {
    const queue = await openQueue('othello@zulip.com', { capabilities: { linkifier_url_template: true } });
    const { id } = expectSuccess(await addLinkifier('iago@zulip.com', 'EVT-(?P<id>\\d+)', 'https://e.example/{id}'));
    const [event] = await queue.drain();
    expect(event.type).toBe('realm_linkifiers');
    expect(event.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual(await listIds());
    expect(event.realm_linkifiers.at(-1)).toEqual({ id, pattern: 'EVT-(?P<id>\\d+)', url_template: 'https://e.example/{id}' });
  });
});

describe('PATCH /realm/filters/{filter_id}', () => {
  it('changes the pattern and template and keeps the place in the order', async () => {
    const before = await listIds();
    expectSuccess(
      await patch('iago@zulip.com', 2, {
        pattern: 'zulip-mobile#(?P<id>[0-9]+)',
        url_template: 'https://github.com/zulip/zulip-flutter/pull/{id}',
      }),
    );
    expect((await stored()).find((l) => l.id === 2)).toMatchObject({
      pattern: 'zulip-mobile#(?P<id>[0-9]+)',
      urlTemplate: 'https://github.com/zulip/zulip-flutter/pull/{id}',
      order: 1,
    });
    expect(await listIds()).toEqual(before);
  });

  it('answers "Linkifier not found." for an unknown id and for another organization\'s', async () => {
    expectError(await patch('iago@zulip.com', 999999, { pattern: 'a', url_template: 'https://x' }), 'Linkifier not found.');
    expectError(await patch('iago@zulip.com', 4, { pattern: 'a', url_template: 'https://x' }), 'Linkifier not found.');
    expect((await stored(3))[0]).toMatchObject({ id: 4, pattern: 'LEAR-(?P<id>[0-9]+)' });
  });

  it('answers king@lear.org "Linkifier not found." for the first organization\'s linkifiers', async () => {
    expectError(await patch('king@lear.org', 1, { pattern: 'a', url_template: 'https://x' }), 'Linkifier not found.');
  });

  it('validates like creation', async () => {
    const result = await patch('iago@zulip.com', 1, { pattern: '#(?P<id>[123])', url_template: '{id' });
    expectError(result, 'Invalid URL template.');
    expect(result.body.errors).toEqual({ url_template: ['Invalid URL template.'] });
    expect((await stored()).find((l) => l.id === 1)?.urlTemplate).toBe('https://github.com/zulip/zulip-desktop/pull/{id}');
  });

  it('refuses a pattern RE2 cannot run and keeps the linkifier as it was', async () => {
    const before = await stored();
    const result = await patch('iago@zulip.com', 1, { pattern: '#(?P<id>[0-9]+)(?!x)', url_template: 'https://x/{id}' });
    expectError(result, 'Bad regular expression: invalid perl operator: (?!');
    expect(await stored()).toEqual(before);
  });

  it('may keep its own pattern', async () => {
    expectSuccess(
      await patch('iago@zulip.com', 1, {
        pattern: '#D(?P<id>[0-9]{2,8})',
        url_template: 'https://github.com/zulip/zulip-desktop/pull/{id}/',
      }),
    );
  });

  it('refuses a member', async () => {
    expectError(
      await patch('hamlet@zulip.com', 1, { pattern: 'a', url_template: 'https://x' }),
      'Must be an organization administrator',
      400,
      'UNAUTHORIZED_PRINCIPAL',
    );
  });
});

describe('DELETE /realm/filters/{filter_id}', () => {
  it('removes the linkifier and keeps the order of the others', async () => {
    const before = await listIds();
    const queue = await openQueue('iago@zulip.com', { capabilities: { linkifier_url_template: true } });
    expectSuccess(await del('iago@zulip.com', before[1]));
    const after = before.filter((id) => id !== before[1]);
    expect(await listIds()).toEqual(after);
    const [event] = await queue.drain();
    expect(event.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual(after);
  });

  it('answers "Linkifier not found." for a deleted, unknown or foreign id', async () => {
    expectError(await del('iago@zulip.com', 2), 'Linkifier not found.');
    expectError(await del('iago@zulip.com', 999999), 'Linkifier not found.');
    expectError(await del('iago@zulip.com', 4), 'Linkifier not found.');
    expectError(await del('king@lear.org', 1), 'Linkifier not found.');
    expect((await stored(3)).map((l) => l.id)).toEqual([4]);
  });

  it('refuses a member', async () => {
    expectError(await del('hamlet@zulip.com', 1), 'Must be an organization administrator', 400, 'UNAUTHORIZED_PRINCIPAL');
    expect((await stored()).some((l) => l.id === 1)).toBe(true);
  });
});

describe('the linkifier list version', () => {
  it('refuses a write based on a stale read', async () => {
    const { version } = await linkifiersStore.readLinkifierList(2, { consistent: true });
    expectSuccess(await addLinkifier('iago@zulip.com', 'STALE-(?P<id>\\d+)', 'https://s/{id}'));
    await expect(linkifiersStore.writeLinkifiers(2, version, { orders: [{ id: 1, order: 99 }] })).rejects.toBeInstanceOf(
      linkifiersStore.LinkifiersChangedError,
    );
    expect((await stored()).find((l) => l.id === 1)?.order).not.toBe(99);
  });
});
