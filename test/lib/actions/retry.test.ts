// retryLostRaces: a conditional write that lost a race runs again on fresh data, a bounded number
// of times; then the client gets upstream's documented 429, never a 500.
import { LostRaceError, MAX_WRITE_ATTEMPTS, retryLostRaces } from '../../../lib/actions/retry';
import { BadRequestError, RateLimitedError } from '../../../lib/errors';

describe('retryLostRaces', () => {
  it('returns the result of the first attempt that is not overtaken', async () => {
    let calls = 0;
    const result = await retryLostRaces(async () => {
      calls += 1;
      if (calls < 3) throw new LostRaceError();
      return 'written';
    });
    expect({ result, calls }).toEqual({ result: 'written', calls: 3 });
  });

  it('passes any other error through at once, a 4xx answer included', async () => {
    let calls = 0;
    const refused = retryLostRaces(async () => {
      calls += 1;
      throw new BadRequestError('Linkifier not found.');
    });
    await expect(refused).rejects.toThrow('Linkifier not found.');
    expect(calls).toBe(1);
  });

  it('answers 429 RATE_LIMIT_HIT with retry-after once every attempt lost its race', async () => {
    let calls = 0;
    const error = await retryLostRaces(async () => {
      calls += 1;
      throw new LostRaceError();
    }).catch((e: unknown) => e);
    expect(calls).toBe(MAX_WRITE_ATTEMPTS);
    expect(error).toBeInstanceOf(RateLimitedError);
    const rateLimited = error as RateLimitedError;
    expect({ status: rateLimited.statusCode, body: rateLimited.toBody(), headers: rateLimited.headers }).toEqual({
      status: 429,
      body: {
        result: 'error',
        msg: 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers',
        code: 'RATE_LIMIT_HIT',
        'retry-after': 1,
      },
      headers: { 'Retry-After': '1' },
    });
  }, 20_000);

  it('retries what the caller names a lost race', async () => {
    let calls = 0;
    const result = await retryLostRaces(
      async () => {
        calls += 1;
        if (calls === 1) throw Object.assign(new Error('changed'), { name: 'LinkifiersChangedError' });
        return calls;
      },
      (error) => (error as Error).name === 'LinkifiersChangedError',
    );
    expect(result).toBe(2);
  });
});
