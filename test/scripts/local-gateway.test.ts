// The local service's front (scripts/local-gateway.ts): the emulator's own answers become the
// API's envelope; the API's answers pass unchanged.
import { rewriteBody } from '../../scripts/local-gateway';

describe("rewriting the emulator's answers", () => {
  it('turns a Lambda timeout answered with 200 into a 504 envelope', () => {
    const body = JSON.stringify({ errorMessage: '[504] - Lambda timeout.', errorType: 'LambdaTimeoutError', stackTrace: ['at x'] });
    expect(rewriteBody(200, body)).toEqual({
      status: 504,
      body: JSON.stringify({ result: 'error', msg: 'Gateway timeout: the request took too long' }),
    });
  });

  it('turns any other Lambda failure into a 502 envelope without its stack', () => {
    const body = JSON.stringify({ errorMessage: 'boom', errorType: 'TypeError', stackTrace: ['at secret (/srv/x.ts:1:1)'] });
    expect(rewriteBody(200, body)).toEqual({ status: 502, body: JSON.stringify({ result: 'error', msg: 'Internal server error' }) });
  });

  it("turns the HTTP layer's own 400 into the error envelope with its message", () => {
    const body = JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'Invalid multipart payload format' });
    expect(rewriteBody(400, body)).toEqual({
      status: 400,
      body: JSON.stringify({ result: 'error', msg: 'Invalid multipart payload format', code: 'BAD_REQUEST' }),
    });
  });

  it('gives an empty error body the envelope with the status reason', () => {
    expect(rewriteBody(413, '')).toEqual({
      status: 413,
      body: JSON.stringify({ result: 'error', msg: 'Payload Too Large', code: 'BAD_REQUEST' }),
    });
  });

  it("leaves the API's own answers alone, errors included", () => {
    expect(rewriteBody(200, JSON.stringify({ result: 'success', msg: '' }))).toBeUndefined();
    expect(rewriteBody(404, JSON.stringify({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' }))).toBeUndefined();
    expect(rewriteBody(204, '')).toBeUndefined();
  });
});
