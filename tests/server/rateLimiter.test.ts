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

/**
 * Waits until the window of a refused attempt has ended, as the refusal says. The window is half a
 * second: long enough that two attempts made one after the other fall in it on a busy machine.
 */
const SHORT_WINDOW = { limit: 1, windowMs: 500 };
const windowEnded = (refused: { retryAfterMs: number }) => new Promise((resolve) => setTimeout(resolve, refused.retryAfterMs + 20));

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

  it('gives back a counted attempt, so the window has room for one more', async () => {
    const rule = { limit: 2, windowMs: 60_000 };
    expect((await limiter.hit('k:back', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:back', rule)).allowed).toBe(true);
    await limiter.giveBack('k:back');
    expect((await limiter.hit('k:back', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:back', rule)).allowed).toBe(false);
  });

  it('gives back nothing below zero, nor to a window that has ended', async () => {
    const rule = SHORT_WINDOW;
    await limiter.giveBack('k:never-hit');
    await limiter.giveBack('k:never-hit');
    expect((await limiter.hit('k:never-hit', rule)).allowed).toBe(true);
    const refused = await limiter.hit('k:never-hit', rule);
    expect(refused.allowed).toBe(false);
    await windowEnded(refused);
    await limiter.giveBack('k:never-hit');
    expect((await limiter.hit('k:never-hit', rule)).allowed).toBe(true);
    expect((await limiter.hit('k:never-hit', rule)).allowed).toBe(false);
  });

  it('lets exactly the limit through when every attempt arrives at once', async () => {
    const rule = { limit: 10, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.hit('k:burst', rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it('opens a fresh window once the old one has passed', async () => {
    const rule = SHORT_WINDOW;
    expect((await limiter.hit('k:short', rule)).allowed).toBe(true);
    const refused = await limiter.hit('k:short', rule);
    expect(refused.allowed).toBe(false);
    await windowEnded(refused);
    expect((await limiter.hit('k:short', rule)).allowed).toBe(true);
  });
});
