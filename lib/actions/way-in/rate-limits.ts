// Upstream's rate limits of authentication (zerver/lib/rate_limiter.py): at most `attempts` in
// any `windowSeconds`, counted per entity of a domain. An attempt is admitted by a conditional
// write before it is carried out, so concurrent attempts can never be admitted beyond the limit.
import { RateLimitedError } from '../../errors';
import { nowMs } from '../../clock';
import * as rateLimitsStore from '../../store/rate-limits';
import { LostRaceError, retryLostRaces } from '../retry';

export type RateLimitRule = { windowSeconds: number; attempts: number };

/** The domains limited, as upstream names its rules. */
export type RateLimitDomain = 'authenticate_by_username' | 'authenticate_by_ip' | 'password_reset_form_by_email' | 'sign_up_form_by_email';

/**
 * Admits one attempt of `entity` under `rule`, or refuses it with 429 RATE_LIMIT_HIT and the
 * seconds until the oldest attempt that counts leaves the window (upstream's secs_to_freedom),
 * with upstream's X-RateLimit-* headers. Writes the admitted attempt's time (conditional on the
 * attempts read; a lost race reads again). Refused attempts are not recorded, as upstream's.
 * Emits no event.
 */
export const admitAttempt = (domain: RateLimitDomain, entity: string, rule: RateLimitRule): Promise<void> =>
  retryLostRaces(async () => {
    const now = nowMs();
    const windowMs = rule.windowSeconds * 1000;
    const read = await rateLimitsStore.getAttempts(domain, entity);
    const counted = read.times.slice(-rule.attempts);
    const oldest = counted.length >= rule.attempts ? counted[0] : undefined;
    if (oldest !== undefined && oldest > now - windowMs) {
      const freeAt = oldest + windowMs;
      throw new RateLimitedError((freeAt - now) / 1000, { limit: rule.attempts, resetAtSeconds: freeAt / 1000 });
    }
    const times = [...counted, now].slice(-rule.attempts);
    if (!(await rateLimitsStore.putAttempts(domain, entity, read, times, Math.ceil((now + windowMs) / 1000)))) throw new LostRaceError();
  });

/** Forgets the attempts of `entity` (upstream clears a username's after a successful login). */
export const clearAttempts = (domain: RateLimitDomain, entity: string): Promise<void> => rateLimitsStore.clearAttempts(domain, entity);
