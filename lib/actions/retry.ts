// Conditional writes that lose a race are retried here, in the actions, on a fresh read: upstream
// serializes such requests with row locks, so each of them succeeds there, and a lost race must
// not become an error here either. The attempts are bounded; after the last one the client gets
// the documented 429 RATE_LIMIT_HIT (nothing was written) instead of a 500.
import { RateLimitedError } from '../errors';

/** Attempts per request; with random backoff this outlasts dozens of concurrent writers. */
export const MAX_WRITE_ATTEMPTS = 40;

/** Thrown by an attempt whose conditional write was refused because another write came first. */
export class LostRaceError extends Error {
  constructor() {
    super('a concurrent write came first');
    this.name = 'LostRaceError';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pause before attempt `n + 1` after a lost race: short and random, so the racers spread out. */
export const backoff = (n: number): Promise<void> => sleep(Math.random() * Math.min(100, 5 * 2 ** Math.min(n, 5))).then(() => undefined);

/**
 * Runs `attempt` (which reads, checks and writes) until it is not overtaken by a concurrent
 * write: an error for which `isLostRace` holds (by default a LostRaceError) starts it again after
 * a short random backoff, so the racers spread out. Any other error, 4xx answers included, ends
 * it. After MAX_WRITE_ATTEMPTS lost races: RateLimitedError.
 */
export const retryLostRaces = async <T>(
  attempt: () => Promise<T>,
  isLostRace: (error: unknown) => boolean = (error) => error instanceof LostRaceError,
): Promise<T> => {
  for (let n = 0; n < MAX_WRITE_ATTEMPTS; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isLostRace(error)) throw error;
    }
    await backoff(n);
  }
  throw new RateLimitedError();
};
