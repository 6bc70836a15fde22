// Typed request parameters through the endpoint wrapper: where values are read from, how JSON
// values are decoded, every upstream validation message, and ignored_parameters_unsupported.
import { publicApiHandler } from '../../../lib/http/api-handler';
import { json, rawString } from '../../../lib/http/params';
import { int, list } from '../../../lib/validation/validators';
import { call, expectError, expectSuccess, type CallOptions } from '../../helpers/api';
import { handler as whoAmI } from './who-am-i';

const PATH = '/test/who_am_i';
const ask = (params: Record<string, unknown>, extra: Partial<CallOptions> = {}) =>
  call(whoAmI, { method: 'POST', path: PATH, as: 'iago@zulip.com', params, ...extra });

/** A test-only endpoint with required parameters and an aliased one. */
const required = publicApiHandler(async ({ params }) =>
  params({
    username: rawString(),
    ids: json(list(int)),
    stream: rawString().optional().alias('stream_name'),
  }),
);
const askRequired = (params: Record<string, unknown>) => call(required, { method: 'POST', path: '/test/required', params });

// JSON-typed values are sent JSON-encoded (so the string `short` with its quotes), raw ones as they are.
const EVERY_KIND = { name: 'a b&c=d', flag: true, count: -1, ids: [1, 2], kind: 'b', short: '"héllo"', thing: { id: 7, label: 'x' } };

describe('parameter sources', () => {
  it('gives the same result for a form body, a multipart body and the query string', async () => {
    const bodies = [];
    for (const encoding of ['form', 'multipart', 'query'] as const) bodies.push(expectSuccess(await ask(EVERY_KIND, { encoding })));
    expect(bodies[0].parsed).toEqual({ ...EVERY_KIND, short: 'héllo' });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it.each(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'])('reads a form body and the query string for %s', async (method) => {
    const body = expectSuccess(await ask({ count: 3 }, { method, encoding: 'form', query: { name: 'from-query' } }));
    expect(body.parsed).toEqual({ flag: false, count: 3, name: 'from-query' });
  });

  it('prefers the body when a parameter is both in the body and in the query string', async () => {
    const body = expectSuccess(await ask({ name: 'from-body' }, { query: { name: 'from-query' } }));
    expect(body.parsed.name).toBe('from-body');
  });

  it('treats an empty multipart body as no parameters', async () => {
    const rawBody = { body: '--emptyboundary--\r\n', contentType: 'multipart/form-data; boundary=emptyboundary' };
    expect(expectSuccess(await ask({}, { rawBody })).parsed).toEqual({ flag: false });
  });

  it('reads multipart bodies whose boundary follows the semicolon without a space (zulip-js)', async () => {
    const body = '--zjs123\r\nContent-Disposition: form-data; name="count"\r\n\r\n5\r\n--zjs123--\r\n';
    const result = await ask({}, { rawBody: { body, contentType: 'multipart/form-data;boundary=zjs123' } });
    expect(expectSuccess(result).parsed.count).toBe(5);
  });

  it('reads multipart bodies whose boundary has characters beyond letters, digits and dashes (Dart)', async () => {
    const boundary = "dart-http-boundary-a_b.c+d'e";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx--y\r\n--${boundary}--\r\n`;
    const rawBody = {
      body: Buffer.from(body).toString('base64'),
      contentType: `multipart/form-data; boundary="${boundary}"`,
      isBase64Encoded: true,
    };
    expect(expectSuccess(await ask({}, { rawBody })).parsed.name).toBe('x--y');
  });

  it('refuses a multipart body without a boundary', async () => {
    const rawBody = { body: 'name=x', contentType: 'multipart/form-data' };
    expectError(await ask({}, { rawBody }), 'Malformed request body');
  });

  it('reads a base64-encoded form body', async () => {
    const rawBody = {
      body: Buffer.from('count=4').toString('base64'),
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
      isBase64Encoded: true,
    };
    expect(expectSuccess(await ask({}, { rawBody })).parsed.count).toBe(4);
  });

  it('reads a form key without a value as an empty string, as upstream', async () => {
    const rawBody = { body: 'name', contentType: 'application/x-www-form-urlencoded' };
    expect(expectSuccess(await ask({}, { rawBody })).parsed.name).toBe('');
  });

  it('takes the last value of a repeated form key', async () => {
    const rawBody = { body: 'count=1&count=2', contentType: 'application/x-www-form-urlencoded' };
    expect(expectSuccess(await ask({}, { rawBody })).parsed.count).toBe(2);
  });

  it('ignores a body of another content type, as upstream reads only form bodies', async () => {
    const rawBody = { body: '{"count": 4}', contentType: 'application/json' };
    expect(expectSuccess(await ask({}, { rawBody })).parsed).toEqual({ flag: false });
  });
});

describe('JSON-typed parameters', () => {
  it('decodes JSON values and takes string parameters raw', async () => {
    const body = expectSuccess(await ask({ flag: 'false', count: '-12', ids: '[]', name: '"quoted"' }));
    expect(body.parsed).toEqual({ flag: false, count: -12, ids: [], name: '"quoted"' });
  });

  it('treats the JSON null of an optional parameter as absent', async () => {
    expect(expectSuccess(await ask({ count: 'null', flag: 'null' })).parsed).toEqual({ flag: false });
  });

  it.each([
    ['flag', 'True', 'flag is not valid JSON'],
    ['flag', 'yes', 'flag is not valid JSON'],
    ['flag', '1', 'flag is not a boolean'],
    ['count', 'true', 'count is not an integer'],
    ['count', '1.5', 'count is not an integer'],
    ['count', '"3"', 'count is not an integer'],
    ['ids', '{"a": 1}', 'ids is not a list'],
    ['ids', '5', 'ids is not a list'],
    ['ids', '[1, "x"]', 'ids[1] is not an integer'],
    ['kind', 'c', 'Invalid kind'],
    ['short', '"abcdef"', 'short is too long (limit: 5 characters)'],
    ['short', '""', 'short cannot be blank'],
    ['thing', '{"id": 1, "extra": 2}', 'Argument "extra" at thing["extra"] is unexpected'],
    ['thing', '{"label": "x"}', 'thing["id"] field is missing: Field required'],
    ['thing', '[1]', 'thing is not a dict'],
    ['thing', '{"id": "1"}', 'thing["id"] is not an integer'],
  ])('refuses %s=%s with "%s"', async (name, value, message) => {
    const result = await ask({ [name]: value });
    expectError(result, message);
    expect(result.body).toEqual({ result: 'error', msg: message, code: 'BAD_REQUEST' });
  });

  it('refuses a missing required parameter with REQUEST_VARIABLE_MISSING and var_name', async () => {
    const result = await askRequired({ ids: '[1]' });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      result: 'error',
      msg: "Missing 'username' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'username',
    });
  });

  it('accepts an empty string for a required raw string parameter', async () => {
    expect(expectSuccess(await askRequired({ username: '', ids: '[]' })).username).toBe('');
  });

  it('accepts a parameter under its alias', async () => {
    expect(expectSuccess(await askRequired({ username: 'u', ids: '[]', stream_name: 'Verona' })).stream).toBe('Verona');
  });

  it('refuses a parameter sent under its name and its alias at once', async () => {
    const result = await askRequired({ username: 'u', ids: '[]', stream: 'a', stream_name: 'b' });
    expectError(result, "Can't decide between 'stream' and 'stream_name' arguments", 400, 'REQUEST_CONFUSING_VAR');
  });
});

describe('ignored_parameters_unsupported', () => {
  it('lists the parameters no declaration read, sorted', async () => {
    const body = expectSuccess(await ask({ zeta: '1', count: '2', alpha: 'x' }, { query: { middle: 'y' } }));
    expect(body.ignored_parameters_unsupported).toEqual(['alpha', 'middle', 'zeta']);
  });

  it('is absent when every parameter was read', async () => {
    expect(expectSuccess(await ask({ count: '2' }))).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('is absent from error responses', async () => {
    const result = await ask({ zeta: '1', count: 'x' });
    expectError(result, 'count is not valid JSON');
    expect(result.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});
