import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../../server/services/rateLimiter';

// Redis runs beside PostgreSQL in CI; locally the Redis cases run when TEST_REDIS_URL is set.
const redisUrl = process.env.TEST_REDIS_URL;

const limiters: { name: string; make: () => RateLimiter }[] = [
  { name: 'memory', make: createMemoryRateLimiter },
  ...(redisUrl
    ? [{ name: 'redis', make: () => createRedisRateLimiter(new Redis(redisUrl), `sage-test:${randomBytes(4).toString('hex')}:`) }]
    : []),
];

describe.each(limiters)('$name rate limiter', ({ make }) => {
  const limiter = make();
  afterAll(() => limiter.close());

  it('allows attempts up to the limit, then refuses with the time left in the window', async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('login:email:a@example.com', rule));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]!.retryAfterMs).toBeGreaterThan(0);
    expect(results[3]!.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('counts each key on its own', async () => {
    const rule = { limit: 1, windowMs: 60_000 };
    expect((await limiter.hit('k:one', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:two', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:one', rule)).allowed).toBe(false);
  });

  it('peeks at a key without counting an attempt', async () => {
    const rule = { limit: 2, windowMs: 60_000 };
    expect(await limiter.peek('k:peek', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
    for (let i = 0; i < 5; i++) expect((await limiter.peek('k:peek', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:peek', rule)).allowed).toBe(true);
    expect((await limiter.peek('k:peek', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:peek', rule)).allowed).toBe(true);

    // The window is full: the next attempt would be refused, and peeking says so.
    const blocked = await limiter.peek('k:peek', rule);
    expect(blocked.allowed).toBe(false);
    expect(blocked.retryAfterMs).toBeGreaterThan(0);
    expect(blocked.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect((await limiter.hit('k:peek', rule)).allowed).toBe(false);
  });

  it('peeks past the end of a window as allowed', async () => {
    const rule = { limit: 1, windowMs: 50 };
    await limiter.hit('k:peek-short', rule);
    expect((await limiter.peek('k:peek-short', rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await limiter.peek('k:peek-short', rule)).toEqual({ allowed: true, retryAfterMs: 0 });
  });

  it('opens a fresh window once the old one has passed', async () => {
    const rule = { limit: 1, windowMs: 50 };
    expect((await limiter.hit('k:short', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:short', rule)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await limiter.hit('k:short', rule)).allowed).toBe(true);
  });
});
