import { gunzipSync } from 'node:zlib';
import { handler as register } from '../../../functions/events/register';
import { COMPRESS_MIN_BYTES, compressIfAccepted, jsonResponse } from '../../../lib/http/response';
import { buildEvent, call, expectSuccess } from '../../helpers/api';

const large = jsonResponse(200, { result: 'success', msg: '', filler: 'x'.repeat(COMPRESS_MIN_BYTES) });
const decode = (body: string) => JSON.parse(gunzipSync(Buffer.from(body, 'base64')).toString('utf8'));

describe('compressIfAccepted', () => {
  it('gzips a large body for a client that accepts gzip, as base64 with Content-Encoding', () => {
    const out = compressIfAccepted(large, 'gzip, deflate, br');
    expect(out.isBase64Encoded).toBe(true);
    expect(out.headers).toMatchObject({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Content-Type': 'application/json' });
    expect(decode(out.body)).toEqual(JSON.parse(large.body));
    expect(out.body.length).toBeLessThan(large.body.length / 10);
  });

  it.each([[undefined], ['identity'], ['br'], ['gzip;q=0'], ['gzip; q=0.0, br']])(
    'leaves the body alone for Accept-Encoding %p',
    (header) => {
      expect(compressIfAccepted(large, header)).toBe(large);
    },
  );

  it('leaves a small body alone', () => {
    const small = jsonResponse(200, { result: 'success', msg: '' });
    expect(compressIfAccepted(small, 'gzip')).toBe(small);
  });
});

describe('a large register snapshot', () => {
  it('comes gzipped to a client that accepts it, with the same content', async () => {
    const plain = expectSuccess(await call(register, { method: 'POST', path: '/register', as: 'iago@zulip.com', params: {} }));
    const zipped = expectSuccess(
      await call(register, { method: 'POST', path: '/register', as: 'iago@zulip.com', params: {}, headers: { 'accept-encoding': 'gzip' } }),
    );
    const raw = await register(
      await buildEvent({ method: 'POST', path: '/register', as: 'iago@zulip.com', params: {}, headers: { 'accept-encoding': 'gzip' } }),
    );
    expect(raw.isBase64Encoded).toBe(true);
    expect(Buffer.byteLength(raw.body)).toBeLessThan(COMPRESS_MIN_BYTES);
    const { queue_id: _a, server_timestamp: _b, ...plainRest } = plain;
    const { queue_id: _c, server_timestamp: _d, ...zippedRest } = zipped;
    expect(Object.keys(zippedRest).sort()).toEqual(Object.keys(plainRest).sort());
    expect(zippedRest.realm_users).toEqual(plainRest.realm_users);
  });
});
