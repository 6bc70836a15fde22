import { expandUriTemplate, isValidUriTemplate, parseUriTemplate } from '../../../lib/validation/uri-template';

describe('RFC 6570 URI template validation', () => {
  // Upstream's test_valid_urls list, plus the operator and modifier forms of the RFC.
  it.each([
    'http://example.com/',
    'https://example.com/',
    'https://user:password@example.com/',
    'https://example.com/@user/thing',
    'https://example.com/!path',
    'https://example.com/foo.bar',
    'https://example.com/foo[bar]',
    'https://example.com/{foo}',
    'https://example.com/{foo}{bars}',
    'https://example.com/{foo}/and/{bar}',
    'https://example.com/?foo={foo}',
    'https://example.com/%ab',
    'https://example.com/%ba',
    'https://example.com/%21',
    'https://example.com/words%20with%20spaces',
    'https://example.com/back%20to%20{back}',
    'https://example.com/encoded%2fwith%2fletters',
    'https://example.com/%%',
    'https://example.com/%%(foo)s',
    'https://example.com{/foo,bar,baz}',
    'https://example.com/{?foo*}',
    'https://example.com/{+foo,bar}',
    'https://chat{.domain}.com/{#foo}',
    'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
    'https://example.com/{;path}{&more}',
    'https://example.com/{var:9999}',
    'https://example.com/{a.b}{%20x}',
    '$not_a_url$',
    '',
  ])('accepts %j', (template) => {
    expect(isValidUriTemplate(template)).toBe(true);
  });

  it.each([
    'https://example.com/{foo',
    'https://example.com/{{}',
    'https://example.com/{//foo}',
    'https://example.com/{bar++}',
    'https://example.com/{}',
    'https://example.com/}',
    'https://example.com/{=foo}',
    'https://example.com/{!foo}',
    'https://example.com/{foo:0}',
    'https://example.com/{foo:10000}',
    'https://example.com/{foo:01}',
    'https://example.com/{foo,}',
    'https://example.com/{.foo.}',
    'https://example.com/{a..b}',
    'https://example.com/{%zz}',
    'https://example.com/with space/{id}',
    'https://example.com/{id}"',
    '{id',
  ])('refuses %j', (template) => {
    expect(isValidUriTemplate(template)).toBe(false);
  });

  it('lists each variable once, in order of appearance', () => {
    expect(parseUriTemplate('https://x/{org}/{repo}{?id,org}{#frag:5}{/path*}')).toEqual({
      variables: ['org', 'repo', 'id', 'frag', 'path'],
    });
  });
});

describe('RFC 6570 URI template expansion (string values)', () => {
  // Examples from RFC 6570 §1.2 with var = "value", hello = "Hello World!", path = "/foo/bar".
  const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', x: '1024', y: '768', empty: '' };
  it.each([
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#hello}', '#Hello%20World!'],
    ['X{.var}', 'X.value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{var:3}', 'val'],
    ['https://example.com/{undefined}', 'https://example.com/'],
  ])('expands %s to %s', (template, expected) => {
    expect(expandUriTemplate(template, values)).toBe(expected);
  });
});
