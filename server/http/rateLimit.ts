import { RateLimitedError } from '../errors';
import { limitName } from '../services/metrics';
import type { RateLimitRule } from '../services/rateLimiter';
import type { Services } from '../services';

/** Counts one attempt against every rule; the first exhausted rule answers 429 with `message`. */
export async function enforceLimits(services: Services, message: string, checks: [string, RateLimitRule][]): Promise<void> {
  for (const [key, rule] of checks) {
    const result = await services.rateLimiter.hit(key, rule);
    if (!result.allowed) {
      services.metrics.rateLimited(limitName(key));
      throw new RateLimitedError(message, result.retryAfterMs);
    }
  }
}
